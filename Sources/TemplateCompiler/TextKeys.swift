/// The catalogs' keys as Swift, generated at build time: code names a text as a member path
/// that spells its key (`localizer.text(.admin.reports, language)` for `admin.reports`), so a
/// key the catalogs lack is a compile error, not a key printed on a page. A counted text
/// (`key_one`, `key_other`) is also a `CountKey` named `key`. A segment Swift cannot name as it
/// is gets a prefix: `errors.404` is `.errors.code404`.
///
/// Every catalog must hold the same keys as the first (English), and none other: the build
/// fails on the first catalog that differs.
enum TextKeys {
    struct Mismatch: Error, CustomStringConvertible {
        let description: String
    }

    /// Fails when a catalog lacks one of the first catalog's keys or holds one it lacks.
    static func checkSameKeys(_ catalogs: [[String: String]], languages: [String]) throws {
        guard let first = catalogs.first else { return }
        for (index, catalog) in catalogs.enumerated().dropFirst() {
            let missing = Set(first.keys).subtracting(catalog.keys).sorted()
            let extra = Set(catalog.keys).subtracting(first.keys).sorted()
            guard missing.isEmpty && extra.isEmpty else {
                let language = index < languages.count ? languages[index] : "catalog \(index + 1)"
                var problems: [String] = []
                if !missing.isEmpty { problems.append("\(language).json lacks \(missing.joined(separator: ", "))") }
                if !extra.isEmpty { problems.append("\(language).json has keys \(languages.first ?? "the first") lacks: \(extra.joined(separator: ", "))") }
                throw Mismatch(description: "error: " + problems.joined(separator: "; "))
            }
        }
    }

    /// The Swift for `keys`: `TextKey`, `CountKey` and the tree of their names.
    static func generate(_ keys: some Collection<String>) -> String {
        let tree = Tree(keys.sorted())
        var lines = [
            "/// A text of the catalogs (`Templates/i18n/en.json`), named by its key: `.admin.reports`.",
            "struct TextKey: Hashable, Sendable {",
            "    let name: String",
            "    fileprivate init(_ name: String) { self.name = name }",
            "}",
            "",
            "/// A counted text of the catalogs, `name_one` and `name_other`: `.time.minute_count`.",
            "struct CountKey: Hashable, Sendable {",
            "    let name: String",
            "    fileprivate init(_ name: String) { self.name = name }",
            "    /// Its text for a count a language calls one, and for any other.",
            "    var one: TextKey { TextKey(name + \"_one\") }",
            "    var other: TextKey { TextKey(name + \"_other\") }",
            "}",
            "",
        ]
        for type in ["TextKey", "CountKey"] {
            lines.append("extension \(type) {")
            lines += tree.members(path: []).map { "    static " + $0 }
            lines.append("}")
            lines.append("")
        }
        lines.append("/// The namespaces of the catalogs' keys.")
        lines.append("enum TextKeyTree {")
        for path in tree.namespaces where !path.isEmpty {
            lines.append("    struct \(typeName(path)): Sendable {")
            lines.append("        /// The text of this namespace called `name`, for a name read from data: nil for none.")
            lines.append("        func named(_ name: String) -> TextKey? { Self.byName[name] }")
            lines.append(contentsOf: tree.byName(path: path).map { "        " + $0 })
            lines += tree.members(path: path).map { "        " + $0 }
            lines.append("    }")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The keys as nested namespaces.
    struct Tree {
        /// Each namespace's children: leaves (whole keys) and namespaces, by segment.
        private var leaves: [[String]: [String]] = [:]
        private var children: [[String]: Set<String>] = [:]
        private(set) var namespaces: [[String]] = [[]]

        init(_ keys: [String]) {
            for key in keys {
                let segments = key.split(separator: ".").map(String.init)
                for depth in 0..<segments.count - 1 {
                    let path = Array(segments[..<depth])
                    let child = path + [segments[depth]]
                    if children[path, default: []].insert(segments[depth]).inserted, !namespaces.contains(child) { namespaces.append(child) }
                }
                leaves[Array(segments.dropLast()), default: []].append(segments[segments.count - 1])
            }
            namespaces.sort { $0.joined(separator: ".") < $1.joined(separator: ".") }
        }

        /// A namespace's texts by their last segment, for `named(_:)`: one lookup of a short
        /// name, where building the whole key first took an allocation per value shown.
        func byName(path: [String]) -> [String] {
            let prefix = path.map { $0 + "." }.joined()
            let entries = (leaves[path] ?? []).sorted().map { "\(literal($0)): TextKey(\(literal(prefix + $0)))," }
            guard !entries.isEmpty else { return ["private static let byName: [String: TextKey] = [:]"] }
            return ["private static let byName: [String: TextKey] = ["] + entries.map { "    " + $0 } + ["]"]
        }

        /// The declarations of a namespace's members: its texts, counted texts and namespaces.
        func members(path: [String]) -> [String] {
            let prefix = path.map { $0 + "." }.joined()
            let texts = leaves[path] ?? []
            var members = texts.sorted().map { "var \(memberName($0)): TextKey { TextKey(\(literal(prefix + $0))) }" }
            let counted = Set(texts.filter { $0.hasSuffix("_one") }.map { String($0.dropLast(4)) })
                .filter { texts.contains($0 + "_other") }
            members += counted.sorted().map { "var \(memberName($0)): CountKey { CountKey(\(literal(prefix + $0))) }" }
            members += (children[path] ?? []).sorted().map { "var \(memberName($0)): TextKeyTree.\(typeName(path + [$0])) { .init() }" }
            return members
        }
    }

    static func typeName(_ path: [String]) -> String {
        path.map { $0.first?.isNumber == true ? "code" + $0 : $0 }.joined(separator: "__")
    }

    static let keywords: Set<String> = [
        "any", "as", "break", "case", "catch", "class", "continue", "default", "defer", "do", "else", "enum", "extension",
        "fallthrough", "false", "fileprivate", "for", "func", "guard", "if", "import", "in", "init", "internal", "is", "let", "nil",
        "open", "operator", "private", "protocol", "public", "repeat", "rethrows", "return", "self", "some", "static", "struct",
        "subscript", "super", "switch", "throw", "throws", "true", "try", "typealias", "var", "where", "while",
    ]

    static func memberName(_ segment: String) -> String {
        if segment.first?.isNumber == true { return "code" + segment }
        return keywords.contains(segment) ? "`\(segment)`" : segment
    }

    static func literal(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
