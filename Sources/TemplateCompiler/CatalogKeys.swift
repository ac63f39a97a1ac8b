import Foundation

/// The catalog keys Swift code names, checked against every catalog as template text is:
/// `localizer.text("key", …)` needs `key`, `localizer.count("key", …)` needs `key_one` and
/// `key_other`, and a key made at run time (`localizer.text("crews.role.\(role)", …)` or
/// `"mail.digest.subject_" + period`) needs some key starting with its written part. A key a catalog lacks fails the build at the
/// line that names it.
enum CatalogKeys {
    struct Missing: Error, CustomStringConvertible {
        let problems: [String]
        var description: String { problems.joined(separator: "\n") }
    }

    /// Every key the sources name that some catalog lacks, as `path:line: error: …`.
    static func check(_ sources: [(path: String, text: String)], catalogs: [[String: String]]) throws {
        var problems: [String] = []
        for source in sources {
            for (number, line) in source.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                for use in uses(in: line) {
                    for (index, catalog) in catalogs.enumerated() where !use.isFound(in: catalog) {
                        problems.append("\(source.path):\(number + 1): error: \(use) is missing from catalog \(index + 1)")
                    }
                }
            }
        }
        if !problems.isEmpty { throw Missing(problems: problems) }
    }

    /// One key as the code names it.
    struct Use: Equatable, CustomStringConvertible {
        enum Kind { case text, count, prefix }
        let key: String
        let kind: Kind

        func isFound(in catalog: [String: String]) -> Bool {
            switch kind {
            case .text: catalog[key] != nil
            case .count: catalog[key + "_one"] != nil && catalog[key + "_other"] != nil
            case .prefix: catalog.keys.contains { $0.hasPrefix(key) }
            }
        }

        var description: String {
            switch kind {
            case .text: "\"\(key)\""
            case .count: "\"\(key)_one\" or \"\(key)_other\""
            case .prefix: "a key starting \"\(key)\""
            }
        }
    }

    /// The keys `localizer.text("…"` and `localizer.count("…"` name on one line.
    static func uses(in line: Substring) -> [Use] {
        var uses: [Use] = []
        var rest = line[...]
        while let call = rest.firstRange(of: "localizer.") {
            rest = rest[call.upperBound...]
            let kind: Use.Kind
            if rest.hasPrefix("text(\"") {
                kind = .text
                rest = rest.dropFirst("text(\"".count)
            } else if rest.hasPrefix("count(\"") {
                kind = .count
                rest = rest.dropFirst("count(\"".count)
            } else {
                continue
            }
            // The literal up to its closing quote, or up to an interpolation; a literal that is
            // added to (`"mail.digest.subject_" + period`) is a prefix too.
            let literal = rest.prefix { $0 != "\"" && $0 != "\\" }
            rest = rest[literal.endIndex...]
            let completed = rest.hasPrefix("\\(") || rest.dropFirst().drop { $0 == " " }.hasPrefix("+")
            guard !literal.isEmpty else { continue }
            uses.append(Use(key: String(literal), kind: completed ? .prefix : kind))
        }
        return uses
    }
}
