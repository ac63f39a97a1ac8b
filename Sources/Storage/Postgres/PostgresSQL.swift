/// Statement text as PostgreSQL reads it.
enum PostgresSQL {
    /// `sql` with SQLite's placeholders — `?` (the next number) and `?N` — written as
    /// PostgreSQL's `$N` (or as `placeholder` writes parameter N), and how many parameters it
    /// has. Quoted text, quoted names and comments are left alone.
    static func numbered(_ sql: String, writing placeholder: (Int) -> String = { "$\($0)" }) -> (sql: String, parameterCount: Int) {
        var output = "", next = 1, highest = 0
        var characters = sql.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        func advance() -> Unicode.Scalar? {
            if let scalar = pending { pending = nil; return scalar }
            return characters.next()
        }
        while let scalar = advance() {
            switch scalar {
            case "'", "\"":
                output.unicodeScalars.append(scalar)
                while let inside = advance() {
                    output.unicodeScalars.append(inside)
                    if inside == scalar { break }  // a doubled quote reopens at once
                }
            case "-":
                output.unicodeScalars.append(scalar)
                guard let following = advance() else { break }
                guard following == "-" else { pending = following; break }
                output.unicodeScalars.append(following)
                while let inside = advance() {
                    output.unicodeScalars.append(inside)
                    if inside == "\n" { break }
                }
            case "?":
                var digits = ""
                while let following = advance() {
                    guard ("0"..."9").contains(following) else { pending = following; break }
                    digits.unicodeScalars.append(following)
                }
                let number = Int(digits) ?? next
                if digits.isEmpty { next += 1 }
                highest = max(highest, number)
                output += placeholder(number)
            default:
                output.unicodeScalars.append(scalar)
            }
        }
        return (output, highest)
    }
}
