import Foundation

/// `moim-templates --templates DIR --output FILE SWIFT_FILE…`: compiles the Mustache
/// templates of DIR (and the catalogs of DIR/i18n, in the order `--languages` gives) into
/// Swift against the view types the Swift files declare, with the catalogs' keys as Swift
/// (`TextKeys`), once every catalog is found to hold the same keys. Run by the
/// CompileTemplates plugin.
@main
struct TemplateCompiler {
    static func main() {
        do {
            try run(Array(CommandLine.arguments.dropFirst()))
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            exit(1)
        }
    }

    static func run(_ arguments: [String]) throws {
        var options: [String: String] = [:]
        var sources: [String] = []
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument.hasPrefix("--"), let value = rest.popFirst() { options[argument] = value } else { sources.append(argument) }
        }
        guard let directory = options["--templates"], let output = options["--output"] else {
            throw UsageError("usage: moim-templates --templates DIR --languages en,ko --output FILE SWIFT_FILE…")
        }
        let languages = (options["--languages"] ?? "en").split(separator: ",").map(String.init)
        // Without catalogs the templates have one language and no `t.` keys.
        let catalogs = languages.isEmpty ? [[:]] : try languages.map { try readCatalog("\(directory)/i18n/\($0).json") }
        let files = try sources.map { (path: $0, text: try String(contentsOfFile: $0, encoding: .utf8)) }
        var code = try compile(templates: try readTemplates(directory), catalogs: catalogs, sources: files.map(\.text))
        if !languages.isEmpty {
            try TextKeys.checkSameKeys(catalogs, languages: languages)
            code += "\n" + TextKeys.generate(catalogs[0].keys)
        }
        // Rewriting an unchanged file would make the build recompile the module for nothing.
        if (try? String(contentsOfFile: output, encoding: .utf8)) != code {
            try code.write(toFile: output, atomically: true, encoding: .utf8)
        }
    }

    static func compile(templates: [String: String], catalogs: [[String: String]], sources: [String]) throws -> String {
        var parsed: [String: [Node]] = [:]
        for (name, text) in templates { parsed[name] = try MustacheParser.parse(text, template: name) }
        let emitter = SwiftEmitter(templates: parsed, views: ViewDeclarations.read(sources), catalogs: catalogs)
        return try emitter.generate() + "\n" + version(templates: templates, catalogs: catalogs)
    }

    /// The templates' and catalogs' text as one number (FNV-1a), for pages' `ETag`s: a page's
    /// fingerprint knows the template text only by where it lies in the program, so a new
    /// wording must change it.
    static func version(templates: [String: String], catalogs: [[String: String]]) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        func add(_ text: String) {
            for byte in text.utf8 + [0] { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        }
        for name in templates.keys.sorted() { add(name); add(templates[name] ?? "") }
        for catalog in catalogs { for key in catalog.keys.sorted() { add(key); add(catalog[key] ?? "") } }
        return "/// The templates' and catalogs' text, as one number.\nlet compiledTemplatesVersion: UInt64 = \(hash)\n"
    }

    static func readTemplates(_ directory: String) throws -> [String: String] {
        var templates: [String: String] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: directory) where file.hasSuffix(".mustache") {
            templates[String(file.dropLast(".mustache".count))] = try String(contentsOfFile: "\(directory)/\(file)", encoding: .utf8)
        }
        return templates
    }

    /// A catalog's nested JSON as dotted keys: `{"nav": {"feed": "Feed"}}` → `nav.feed`.
    static func readCatalog(_ path: String) throws -> [String: String] {
        var flat: [String: String] = [:]
        func flatten(_ object: Any, _ prefix: String) {
            if let text = object as? String { flat[prefix] = text }
            if let tree = object as? [String: Any] {
                for (key, value) in tree { flatten(value, prefix.isEmpty ? key : "\(prefix).\(key)") }
            }
        }
        flatten(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))), "")
        return flat
    }
}

struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
