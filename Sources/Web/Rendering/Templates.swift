import Foundation
import Mustache

/// The Mustache templates of `Templates/`, parsed once at start.
struct Templates: Sendable {
    private let library: MustacheLibrary

    init(directory: String) throws {
        MustacheContentTypes.register(HTMLEscaping(), named: HTMLEscaping.name)
        var templates: [String: MustacheTemplate] = [:]
        let root = URL(fileURLWithPath: directory)
        let files = FileManager.default.enumerator(atPath: directory)?.compactMap { $0 as? String } ?? []
        for path in files where path.hasSuffix(".mustache") {
            let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            templates[String(path.dropLast(".mustache".count))] = try MustacheTemplate(string: text)
        }
        guard !templates.isEmpty else { throw CocoaError(.fileNoSuchFile) }
        library = MustacheLibrary(templates: templates)
    }

    /// Renders `name` with `data`; a missing template is a programming error reported as 500.
    func render(_ name: String, _ data: [String: Any]) throws -> String {
        guard let html = library.render(data, withTemplate: name) else {
            throw TemplateError.missing(name)
        }
        return html
    }

    enum TemplateError: Error {
        case missing(String)
    }
}
