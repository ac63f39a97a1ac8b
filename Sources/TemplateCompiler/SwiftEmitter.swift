import Foundation

/// Turns the templates into Swift: each page view gets a `render(into:)` method writing its
/// template to an `HTMLWriter`; partials and parents become functions.
///
/// Names are resolved here, once, as Mustache resolves them at run time: through the stack
/// of views the enclosing sections pushed, innermost first. A name no view on the stack has
/// is a build error pointing at the template's line. The types decide what a section does:
/// a `Bool` is a condition, an optional is unwrapped, an array is looped over, a struct is
/// entered. Catalog text (`{{t.key}}`) is inlined, escaped, for each language.
final class SwiftEmitter {
    let templates: [String: [Node]]
    let views: [String: ViewType]
    /// One flat catalog per language, in the order of `HTMLWriter.language`.
    let catalogs: [[String: String]]

    private var functions: [String] = []
    /// Partial and parent functions made so far, by template and stack types.
    private var made: [String: String] = [:]
    private var lines: [String] = []
    private var indent = 1
    private var counter = 0
    /// Emitting a parent: its blocks are the closures it was given.
    private var blocksAreParameters = false

    init(templates: [String: [Node]], views: [String: ViewType], catalogs: [[String: String]]) {
        self.templates = templates
        self.views = views
        self.catalogs = catalogs
    }

    /// A view on the stack: the Swift variable holding it and its type.
    struct Scope {
        let variable: String
        let type: TypeRef
    }

    func generate() throws -> String {
        var pages: [String] = []
        for view in views.values.sorted(by: { $0.name < $1.name }) {
            if let template = view.textTemplate {
                guard let nodes = templates[template] else {
                    throw TemplateError(template: template, line: 1, message: "\(view.name) names a text template that does not exist")
                }
                pages.append(try function(
                    "extension \(view.name) {\n    func renderText(into w: inout HTMLWriter) {",
                    stack: [Scope(variable: "self", type: .named(view.name))],
                    nodes: nodes, template: template, closing: "    }\n}"))
            }
            guard let template = view.template, let nodes = templates[template] else { continue }
            if let parent = Self.parentName(nodes) {
                // Only pages set in a parent are compiled; the parent is their function.
                guard let parentView = views.values.first(where: { $0.template == parent }) else {
                    throw TemplateError(template: template, line: 1, message: "no view declares `static let template = \"\(parent)\"`")
                }
                pages.append(try function(
                    "extension \(view.name) {\n    func render(into w: inout HTMLWriter, _ c0: \(parentView.name)) {",
                    stack: [Scope(variable: "c0", type: .named(parentView.name)), Scope(variable: "self", type: .named(view.name))],
                    nodes: nodes, template: template, closing: "    }\n}"))
            } else if !isParent(template) {
                pages.append(try function(
                    "extension \(view.name) {\n    func render(into w: inout HTMLWriter) {",
                    stack: [Scope(variable: "self", type: .named(view.name))],
                    nodes: nodes, template: template, closing: "    }\n}"))
            }
        }
        return (["// Generated from Templates/ by moim-templates at build time. Do not edit.\n\nimport CompiledHTML\n"] + pages + functions)
            .joined(separator: "\n") + "\n"
    }

    private static func parentName(_ nodes: [Node]) -> String? {
        for node in nodes { if case .parent(let name, _, _) = node { return name } }
        return nil
    }

    private func isParent(_ template: String) -> Bool {
        templates.values.contains { Self.parentName($0) == template }
    }

    private func function(_ header: String, stack: [Scope], nodes: [Node], template: String, closing: String,
                                   blocksAreParameters: Bool = false) throws -> String {
        let saved = (lines, indent, counter, self.blocksAreParameters)
        self.blocksAreParameters = blocksAreParameters
        lines = [header]
        indent = header.hasPrefix("extension") ? 2 : 1
        counter = stack.count
        try emit(nodes, stack: stack, template: template)
        let body = (lines + [closing]).joined(separator: "\n")
        (lines, indent, counter, self.blocksAreParameters) = saved
        return body
    }

    private func line(_ text: String) {
        lines.append(String(repeating: "    ", count: indent) + text)
    }

    private func block(_ opening: String, _ body: () throws -> Void) rethrows {
        line(opening + " {")
        indent += 1
        try body()
        indent -= 1
        line("}")
    }

    private func emit(_ nodes: [Node], stack: [Scope], template: String) throws {
        let plainText = templates[template]?.contains(.plainText) ?? false
        var pendingText: [String] = Array(repeating: "", count: catalogs.count)
        func flushText() {
            guard !pendingText[0].isEmpty else { return }
            if Set(pendingText).count == 1 {
                line("w.write(\(Self.literal(pendingText[0])))")
            } else {
                let choices = pendingText.enumerated().dropLast().map { "w.language == \($0.offset) ? \(Self.literal($0.element)) : " }.joined()
                line("w.write(\(choices)\(Self.literal(pendingText[pendingText.count - 1])))")
            }
            pendingText = Array(repeating: "", count: catalogs.count)
        }
        for node in nodes {
            switch node {
            case .text(let text):
                for index in pendingText.indices { pendingText[index] += text }
                continue
            case .catalog(let key, let line):
                for (index, catalog) in catalogs.enumerated() {
                    guard let text = catalog[key] else {
                        throw TemplateError(template: template, line: line, message: "t.\(key) is missing from catalog \(index + 1)")
                    }
                    pendingText[index] += plainText ? text : Self.escapeHTML(text)
                }
                continue
            default:
                flushText()
            }
            switch node {
            case .variable(let name, let escaped, let line):
                try variable(name, escaped: escaped && !plainText, stack: stack, template: template, line: line)
            case .section(let name, let inverted, let body, let line):
                try section(name, inverted: inverted, body: body, stack: stack, template: template, line: line)
            case .partial(let name, let line):
                try partial(name, stack: stack, template: template, line: line)
            case .parent(let name, let blocks, let line):
                try parent(name, blocks: blocks, stack: stack, template: template, line: line)
            case .block(let name, let nodes):
                // In a parent, the closure its child passed; elsewhere, the block's own nodes.
                if blocksAreParameters { self.line("\(name)(&w)") } else { try emit(nodes, stack: stack, template: template) }
            case .text, .catalog, .plainText:
                break
            }
        }
        flushText()
    }

    // MARK: - Names

    /// The Swift expression and type a name stands for on this stack.
    func resolve(_ name: Name, stack: [Scope], template: String, line: Int) throws -> (expression: String, type: TypeRef) {
        guard let top = stack.last else { throw TemplateError(template: template, line: line, message: "no view") }
        if name.isImplicit { return (top.variable, top.type) }
        let first = name.segments[0]
        for scope in stack.reversed() {
            guard case .named(let typeName) = scope.type, let view = views[typeName], let type = view.properties[first] else { continue }
            var expression = "\(scope.variable).\(first)"
            var current = type
            for segment in name.segments.dropFirst() {
                (expression, current) = try member(segment, of: expression, current, template: template, line: line, name: name)
            }
            return (expression, current)
        }
        let searched = stack.map(\.type.description).reversed().joined(separator: ", ")
        throw TemplateError(template: template, line: line, message: "no view on the stack (\(searched)) has `\(first)`")
    }

    private func member(_ segment: String, of expression: String, _ type: TypeRef, template: String, line: Int, name: Name) throws -> (String, TypeRef) {
        switch type {
        case .optional(let wrapped):
            let (inner, innerType) = try member(segment, of: expression + "?", wrapped, template: template, line: line, name: name)
            return (inner, innerType.unwrappedOnce == innerType ? .optional(innerType) : innerType)
        case .dictionary(let value):
            return ("\(expression)[\(Self.literal(segment))]", .optional(value))
        case .named(let typeName):
            guard let view = views[typeName], let property = view.properties[segment] else {
                throw TemplateError(template: template, line: line, message: "`\(typeName)` has no `\(segment)` (in {{\(name)}})")
            }
            return ("\(expression).\(segment)", property)
        case .array:
            throw TemplateError(template: template, line: line, message: "{{\(name)}} reads into a list")
        }
    }

    // MARK: - Tags

    private func variable(_ name: Name, escaped: Bool, stack: [Scope], template: String, line: Int) throws {
        let (expression, type) = try resolve(name, stack: stack, template: template, line: line)
        let write = escaped ? "w.escape" : "w.raw"
        switch type {
        case .named("String"), .named("Int"), .named("Int64"):
            self.line("\(write)(\(expression))")
        case .optional(.named("String")), .optional(.named("Int")), .optional(.named("Int64")):
            self.line("if let value = \(expression) { \(write)(value) }")
        case .named("HTMLFragment") where !escaped:
            self.line("w.raw(\(expression))")
        case .named("HTMLFragment"):
            throw TemplateError(template: template, line: line, message: "{{\(name)}} is HTML already: write it {{{\(name)}}}")
        default:
            throw TemplateError(template: template, line: line, message: "{{\(name)}} is a \(type); only String and Int are written")
        }
    }

    private func section(_ name: Name, inverted: Bool, body: [Node], stack: [Scope], template: String, line: Int) throws {
        let (expression, type) = try resolve(name, stack: stack, template: template, line: line)
        counter += 1
        let variable = "c\(counter)"
        let variableRegex = try Regex("\\b\(variable)\\b")
        func render(_ pushed: TypeRef?) throws {
            let inner = pushed.map { stack + [Scope(variable: variable, type: $0)] } ?? stack
            let opening = lines.count - 1
            try emit(body, stack: inner, template: template)
            // A value the section's body never reads is tested, not bound.
            guard pushed != nil, !lines[(opening + 1)...].contains(where: { $0.contains(variableRegex) }) else { return }
            lines[opening] = lines[opening]
                .replacingOccurrences(of: "if let \(variable) = \(expression) {", with: "if \(expression) != nil {")
                .replacingOccurrences(of: "for \(variable) in", with: "for _ in")
        }
        switch (type, inverted) {
        case (.named("Bool"), false): try block("if \(expression)") { try render(nil) }
        case (.named("Bool"), true): try block("if !\(expression)") { try render(nil) }
        case (.optional(.named("Bool")), false): try block("if \(expression) == true") { try render(nil) }
        case (.optional(.named("Bool")), true): try block("if \(expression) != true") { try render(nil) }
        case (.array(let element), false): try block("for \(variable) in \(expression)") { try render(element) }
        case (.array, true): try block("if \(expression).isEmpty") { try render(nil) }
        case (.optional(.array(let element)), false): try block("for \(variable) in \(expression) ?? []") { try render(element) }
        case (.optional(.array), true): try block("if \(expression)?.isEmpty ?? true") { try render(nil) }
        case (.optional(let wrapped), false): try block("if let \(variable) = \(expression)") { try render(wrapped) }
        case (.optional, true): try block("if \(expression) == nil") { try render(nil) }
        case (.named(let typeName), false) where views[typeName] != nil:
            // Always there: names inside read it through the expression itself.
            try emit(body, stack: stack + [Scope(variable: expression, type: type)], template: template)
        case (.named(let typeName), true) where views[typeName] != nil:
            break  // a view is always there
        default:
            throw TemplateError(template: template, line: line,
                                message: "{{\(inverted ? "^" : "#")\(name)}} is a \(type): a section takes a Bool, an optional, a list or a view")
        }
    }

    /// A partial is a function of the stack it is called with: names inside it resolve
    /// exactly as they would have in place.
    private func partial(_ name: String, stack: [Scope], template: String, line: Int) throws {
        guard let nodes = templates[name] else { throw TemplateError(template: template, line: line, message: "no template \(name)") }
        let function = try made(name, stack: stack, depthCheck: template, line: line) { header, scopes in
            try self.function(header, stack: scopes, nodes: nodes, template: name, closing: "}")
        }
        self.line("\(function)(&w\(stack.map { ", \($0.variable)" }.joined()))")
    }

    /// A parent (the layout) is a function of its own view, with one closure per block; the
    /// blocks a child fills are rendered in the child's stack, the others as the parent has them.
    private func parent(_ name: String, blocks: [String: [Node]], stack: [Scope], template: String, line: Int) throws {
        guard let nodes = templates[name], let view = views.values.first(where: { $0.template == name }),
              let scope = stack.last(where: { $0.type == .named(view.name) }) else {
            throw TemplateError(template: template, line: line, message: "{{<\(name)}} needs a view declaring `static let template = \"\(name)\"` on the stack")
        }
        let defaults = Self.blocks(nodes)
        for block in blocks.keys where !defaults.contains(where: { $0.name == block }) {
            throw TemplateError(template: template, line: line, message: "\(name) has no block \(block)")
        }
        let function = try made(name, stack: [Scope(variable: "c0", type: scope.type)], depthCheck: template, line: line) { header, scopes in
            let parameters = defaults.map { ", \($0.name): (inout HTMLWriter) -> Void" }.joined()
            let signature = header.replacingOccurrences(of: ") {", with: "\(parameters)) {")
            return try self.function(signature, stack: scopes, nodes: nodes, template: name, closing: "}", blocksAreParameters: true)
        }
        guard !defaults.isEmpty else { return self.line("\(function)(&w, \(scope.variable))") }
        self.line("\(function)(")
        indent += 1
        self.line("&w, \(scope.variable),")
        for (index, block) in defaults.enumerated() {
            self.line("\(block.name): { w in")
            indent += 1
            if let filled = blocks[block.name] {
                try emit(filled, stack: stack, template: template)
            } else {
                try emit(block.nodes, stack: [scope], template: name)
            }
            indent -= 1
            self.line(index == defaults.count - 1 ? "})" : "},")
        }
        indent -= 1
    }

    private func made(_ name: String, stack: [Scope], depthCheck template: String, line: Int,
                               _ make: (String, [Scope]) throws -> String) throws -> String {
        let key = ([name] + stack.map(\.type.description)).joined(separator: ",")
        if let existing = made[key] { return existing }
        guard stack.count < 16 else { throw TemplateError(template: template, line: line, message: "partials nest too deep (recursion?)") }
        let function = Self.identifier(name) + (made.keys.contains { $0.hasPrefix(name + ",") } ? String(made.count) : "")
        made[key] = function
        let scopes = stack.enumerated().map { Scope(variable: "c\($0.offset)", type: $0.element.type) }
        let parameters = scopes.map { ", _ \($0.variable): \($0.type)" }.joined()
        functions.append(try make("private func \(function)(_ w: inout HTMLWriter\(parameters)) {", scopes))
        return function
    }

    /// A parent's blocks with their default nodes, in order of appearance.
    private static func blocks(_ nodes: [Node]) -> [(name: String, nodes: [Node])] {
        var found: [(name: String, nodes: [Node])] = []
        for node in nodes {
            switch node {
            case .block(let name, let nodes): found.append((name, nodes))
            case .section(_, _, let body, _): found += blocks(body)
            default: continue
            }
        }
        return found
    }

    // MARK: - Text

    static func identifier(_ template: String) -> String {
        let parts = template.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
        return "render" + parts.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    static func literal(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: result += "\\u{\(String(scalar.value, radix: 16))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// As `HTMLWriter.escape` does at run time.
    static func escapeHTML(_ text: String) -> String {
        var result = ""
        for character in text.unicodeScalars {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }
}

extension TypeRef {
    var unwrappedOnce: TypeRef {
        if case .optional(let wrapped) = self { return wrapped }
        return self
    }
}
