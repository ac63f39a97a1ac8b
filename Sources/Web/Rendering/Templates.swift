import Foundation
import Mustache

/// The Mustache templates of `Templates/`, parsed once at start, one set per language.
///
/// UI text is written `{{t.section.key}}` in templates. Each such tag is replaced by the
/// escaped catalog text before parsing, so that a page render does not look every label up
/// through Mustache's context stack (that lookup was half the time of a rendered page), and
/// a template naming a key that no catalog has fails at start instead of rendering a blank.
struct Templates: Sendable {
    private let libraries: [Language: MustacheLibrary]

    enum TemplateError: Error, CustomStringConvertible {
        case missing(String)
        case unknownKey(String, template: String)

        var description: String {
            switch self {
            case .missing(let name): "no template named \(name)"
            case .unknownKey(let key, let template): "\(template).mustache uses t.\(key), which the catalogs lack"
            }
        }
    }

    init(directory: String, localizer: Localizer) throws {
        MustacheContentTypes.register(HTMLEscaping(), named: HTMLEscaping.name)
        let root = URL(fileURLWithPath: directory)
        var sources: [String: String] = [:]
        for path in FileManager.default.enumerator(atPath: directory)?.compactMap({ $0 as? String }) ?? []
        where path.hasSuffix(".mustache") {
            sources[String(path.dropLast(".mustache".count))] = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
        }
        guard !sources.isEmpty else { throw TemplateError.missing(directory) }
        var libraries: [Language: MustacheLibrary] = [:]
        for language in Language.allCases {
            var templates: [String: MustacheTemplate] = [:]
            for (name, source) in sources {
                let text = try Self.inline(source, name: name) { localizer.text($0, language, exact: true) }
                templates[name] = try MustacheTemplate(string: text)
            }
            libraries[language] = MustacheLibrary(templates: templates)
        }
        self.libraries = libraries
    }

    /// Renders `name` with `data` in `language`.
    func render(_ name: String, _ language: Language, _ data: [String: Any]) throws -> String {
        guard let html = libraries[language]?.render(data, withTemplate: name) else {
            throw TemplateError.missing(name)
        }
        return html
    }

    private static func inline(_ source: String, name: String, text: (String) -> String?) throws -> String {
        var output = ""
        var rest = source[...]
        while let match = rest.firstMatch(of: /\{\{\s*t\.([A-Za-z0-9_.]+)\s*\}\}/) {
            output += rest[..<match.range.lowerBound]
            let key = String(match.1)
            guard let value = text(key) else { throw TemplateError.unknownKey(key, template: name) }
            // Escaped here, and mustache delimiters neutralised so catalog text stays text.
            output += HTMLEscaping.escape(value).replacingOccurrences(of: "{{", with: "&#123;&#123;")
            rest = rest[match.range.upperBound...]
        }
        return output + rest
    }
}
