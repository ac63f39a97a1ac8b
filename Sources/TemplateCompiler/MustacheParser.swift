/// A Mustache template as a tree, parsed with the spec's rules for standalone lines: a line
/// holding only whitespace and one section, partial, block, comment or pragma tag is
/// dropped whole, so templates can be indented without the output gaining blank lines.
///
/// Only what Moim's templates use is supported: variables (`{{x}}`, `{{{x}}}`, `{{&x}}`,
/// dotted names, `{{.}}`), sections, inverted sections, partials, a parent with blocks
/// (`{{<layout}}{{$content}}…{{/content}}{{/layout}}`), comments and the `CONTENT_TYPE`
/// pragma (`HTML5`, or `TEXT` for plain text). Catalog text is written `{{t.key}}`. Anything else is an error, not a guess.
indirect enum Node: Equatable {
    case text(String)
    case catalog(key: String, line: Int)
    case variable(Name, escaped: Bool, line: Int)
    case section(Name, inverted: Bool, [Node], line: Int)
    case partial(String, line: Int)
    /// `{{<name}}`: the parent template rendered with these blocks in place of its own.
    case parent(String, blocks: [String: [Node]], line: Int)
    /// `{{$name}}`: a block a child may replace; its nodes are the default.
    case block(String, [Node])
    /// `{{% CONTENT_TYPE: TEXT }}`: the template is plain text (an email's text part), so
    /// values and catalog text are written as they are, not HTML-escaped.
    case plainText
}

/// A tag's name: `.` or dotted segments.
struct Name: Equatable, CustomStringConvertible {
    let segments: [String]
    var isImplicit: Bool { segments.isEmpty }
    var description: String { isImplicit ? "." : segments.joined(separator: ".") }

    init(_ text: String) {
        segments = text == "." ? [] : text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }
}

struct TemplateError: Error, CustomStringConvertible {
    let template: String
    let line: Int
    let message: String
    var description: String { "Templates/\(template).mustache:\(line): error: \(message)" }
}

enum MustacheParser {
    /// One piece of a template before the tree is built.
    private enum Token {
        case text(String)
        case tag(kind: Character?, name: String, line: Int)

        /// Tags that make a line standalone when they are alone on it.
        var canStandAlone: Bool {
            if case .tag(let kind?, _, _) = self { return "#^/><$!%".contains(kind) }
            return false
        }
        var isBlank: Bool {
            if case .text(let text) = self { return text.allSatisfy { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r\n" } }
            return false
        }
    }

    static func parse(_ source: String, template: String) throws -> [Node] {
        let lines = try tokenize(source, template: template)
        var tokens: [Token] = []
        for line in lines {
            let tags = line.filter { if case .tag = $0 { true } else { false } }
            let standalone = tags.count == 1 && tags[0].canStandAlone && line.allSatisfy { $0.isBlank || $0.canStandAlone }
            tokens += standalone ? tags : line
        }
        var position = 0
        let nodes = try build(tokens, &position, closing: nil, template: template)
        return nodes
    }

    /// Splits the source into lines of tokens; a line's last text token keeps its newline.
    private static func tokenize(_ source: String, template: String) throws -> [[Token]] {
        var lines: [[Token]] = [[]]
        var lineNumber = 1
        var rest = Substring(source)
        func addText(_ text: Substring) {
            var text = text
            while let newline = text.firstIndex(of: "\n") {
                lines[lines.count - 1].append(.text(String(text[...newline])))
                lines.append([])
                lineNumber += 1
                text = text[text.index(after: newline)...]
            }
            if !text.isEmpty { lines[lines.count - 1].append(.text(String(text))) }
        }
        while let open = rest.range(of: "{{") {
            addText(rest[..<open.lowerBound])
            let triple = rest[open.upperBound...].hasPrefix("{")
            let bodyStart = triple ? rest.index(after: open.upperBound) : open.upperBound
            let closer = triple ? "}}}" : "}}"
            guard let close = rest[bodyStart...].range(of: closer) else {
                throw TemplateError(template: template, line: lineNumber, message: "a tag is not closed")
            }
            var body = rest[bodyStart..<close.lowerBound].trimmingSpaces
            var kind: Character? = triple ? "&" : nil
            if !triple, let first = body.first, "#^/><$!%&=".contains(first) {
                kind = first
                body = body.dropFirst().trimmingSpaces
            }
            if kind == "=" {
                throw TemplateError(template: template, line: lineNumber, message: "changing delimiters is not supported")
            }
            lines[lines.count - 1].append(.tag(kind: kind, name: String(body), line: lineNumber))
            lineNumber += rest[open.lowerBound..<close.upperBound].filter { $0 == "\n" }.count
            rest = rest[close.upperBound...]
        }
        addText(rest)
        return lines
    }

    private static func build(_ tokens: [Token], _ position: inout Int, closing: (name: String, line: Int)?, template: String) throws -> [Node] {
        var nodes: [Node] = []
        while position < tokens.count {
            let token = tokens[position]
            position += 1
            guard case .tag(let kind, let name, let line) = token else {
                if case .text(let text) = token {
                    if case .text(let previous)? = nodes.last { nodes[nodes.count - 1] = .text(previous + text) } else { nodes.append(.text(text)) }
                }
                continue
            }
            func fail(_ message: String) -> TemplateError { TemplateError(template: template, line: line, message: message) }
            switch kind {
            case nil, "&":
                guard isName(name) else { throw fail("'\(name)' is not a name") }
                if kind == nil, name.hasPrefix("t.") {
                    nodes.append(.catalog(key: String(name.dropFirst(2)), line: line))
                } else {
                    nodes.append(.variable(Name(name), escaped: kind == nil, line: line))
                }
            case "#", "^":
                guard isName(name), name != "." else { throw fail("'\(name)' is not a section name") }
                let body = try build(tokens, &position, closing: (name, line), template: template)
                nodes.append(.section(Name(name), inverted: kind == "^", body, line: line))
            case "/":
                guard let closing else { throw fail("{{/\(name)}} closes nothing open") }
                guard closing.name == name else { throw fail("{{/\(name)}} where {{/\(closing.name)}} was expected") }
                return nodes
            case ">":
                nodes.append(.partial(name, line: line))
            case "<":
                let body = try build(tokens, &position, closing: (name, line), template: template)
                var blocks: [String: [Node]] = [:]
                for node in body {
                    switch node {
                    case .block(let blockName, let nodes): blocks[blockName] = nodes
                    case .text(let text) where text.allSatisfy(\.isWhitespace): continue
                    default: throw fail("only blocks may stand inside {{<\(name)}}")
                    }
                }
                nodes.append(.parent(name, blocks: blocks, line: line))
            case "$":
                nodes.append(.block(name, try build(tokens, &position, closing: (name, line), template: template)))
            case "!":
                continue
            case "%":
                switch name.replacingOccurrences(of: " ", with: "") {
                case "CONTENT_TYPE:HTML5": continue
                case "CONTENT_TYPE:TEXT": nodes.append(.plainText)
                default: throw fail("unknown pragma \(name)")
                }
            default:
                throw fail("unsupported tag")
            }
        }
        if let closing {
            throw TemplateError(template: template, line: closing.line, message: "{{\(closing.name)}} is never closed")
        }
        return nodes
    }

    private static func isName(_ text: String) -> Bool {
        text == "." || (!text.isEmpty && text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { segment in
            !segment.isEmpty && segment.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
        })
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var text = self
        while text.first?.isWhitespace == true { text = text.dropFirst() }
        while text.last?.isWhitespace == true { text = text.dropLast() }
        return text
    }
}
