/// The view types templates render, read from the Swift sources that declare them.
///
/// The compiler does not type-check Swift; it reads each `struct`'s properties, one per line
/// (`let name: Type`, `var name: Type { … }`), and `static let template = "name"`, which ties
/// a page template to its view (and `static let textTemplate`, a plain-text one). That is enough to resolve every tag to a property at build
/// time; the Swift compiler then checks the generated code against the real declarations.
indirect enum TypeRef: Equatable, CustomStringConvertible {
    case named(String)
    case optional(TypeRef)
    case array(TypeRef)
    /// `[String: Value]`, read in templates with a fixed key: `{{#errors.email}}`.
    case dictionary(TypeRef)

    init?(parsing text: Substring) {
        let text = text.trimmingSpaces
        if text.hasSuffix("?") {
            guard let wrapped = TypeRef(parsing: text.dropLast()) else { return nil }
            self = .optional(wrapped)
        } else if text.hasPrefix("["), text.hasSuffix("]") {
            let inner = text.dropFirst().dropLast()
            if let colon = inner.firstIndex(of: ":") {
                guard inner[..<colon].trimmingSpaces == "String", let value = TypeRef(parsing: inner[inner.index(after: colon)...]) else { return nil }
                self = .dictionary(value)
            } else {
                guard let element = TypeRef(parsing: inner) else { return nil }
                self = .array(element)
            }
        } else if !text.isEmpty, text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }) {
            self = .named(String(text))
        } else {
            return nil
        }
    }

    var description: String {
        switch self {
        case .named(let name): name
        case .optional(let wrapped): "\(wrapped)?"
        case .array(let element): "[\(element)]"
        case .dictionary(let value): "[String: \(value)]"
        }
    }

    /// The type without optionals.
    var unwrapped: TypeRef {
        if case .optional(let wrapped) = self { return wrapped.unwrapped }
        return self
    }
}

struct ViewType {
    let name: String
    var template: String?
    /// A plain-text template rendered from the same view (an email's text part).
    var textTemplate: String?
    var properties: [String: TypeRef] = [:]
}

enum ViewDeclarations {
    /// Every struct in `sources` (and its extensions) with the properties a template could read.
    static func read(_ sources: [String]) -> [String: ViewType] {
        var types: [String: ViewType] = [:]
        for source in sources {
            var open: [(view: ViewType, depth: Int)] = []
            var depth = 0
            for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
                let code = codeOnly(line)
                if let match = code.firstMatch(of: /^\s*(?:(?:public|internal|fileprivate|private)\s+)?(?:struct|extension)\s+(\w+)/) {
                    let name = String(match.1)
                    open.append((types[name] ?? ViewType(name: name), depth + 1))
                } else if var current = open.last, depth == current.depth {
                    if let match = line.firstMatch(of: /^\s*static\s+let\s+template\s*=\s*"([^"]+)"/) {
                        current.view.template = String(match.1)
                    } else if let match = line.firstMatch(of: /^\s*static\s+let\s+textTemplate\s*=\s*"([^"]+)"/) {
                        current.view.textTemplate = String(match.1)
                    } else if let match = code.firstMatch(of: /^\s*(?:(?:public|internal|fileprivate|private)\s+)?(?:let|var)\s+(\w+)\s*:\s*([^={]+)/),
                              let type = TypeRef(parsing: match.2) {
                        current.view.properties[String(match.1)] = type
                    }
                    open[open.count - 1] = current
                }
                for character in code where character == "{" || character == "}" {
                    if character == "{" {
                        depth += 1
                    } else {
                        if let current = open.last, depth == current.depth {
                            types[current.view.name] = current.view
                            open.removeLast()
                        }
                        depth -= 1
                    }
                }
            }
        }
        return types
    }

    /// The line without its `//` comment and with string literals emptied, so that braces
    /// in text do not count.
    static func codeOnly(_ line: Substring) -> String {
        var code = ""
        var inString = false
        var escaped = false
        var previous: Character = " "
        for character in line {
            if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false; code.append(character) }
            } else if character == "/", previous == "/" {
                code.removeLast()
                break
            } else {
                if character == "\"" { inString = true }
                code.append(character)
            }
            previous = character
        }
        return code
    }
}
