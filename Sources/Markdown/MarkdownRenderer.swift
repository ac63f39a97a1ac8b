import CCmark
import Foundation

/// CommonMark to HTML through the system libcmark, in its safe mode: raw HTML is replaced
/// by a comment and `javascript:`, `vbscript:`, `file:` and non-image `data:` links are emptied.
/// `#hashtags` and `@mentions` in running text become links; external links get
/// `rel="nofollow ugc noopener"`.
public enum MarkdownRenderer {
    /// A rendered text and what it refers to.
    public struct Document: Sendable, Equatable {
        /// Safe to insert into a page unescaped.
        public let html: String
        /// Normalised hashtags, in order of first appearance.
        public let tags: [String]
        /// Usernames mentioned that exist, in order of first appearance.
        public let mentions: [String]
    }

    private static let options = CMARK_OPT_SMART | CMARK_OPT_VALIDATE_UTF8
    /// RFC 3986 unreserved characters: everything else in a tag is percent-encoded.
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// HTML for `markdown`, without hashtag or mention links.
    public static func html(_ markdown: String) -> String {
        render(markdown, linkTags: false, existingUsers: { _ in [] }).html
    }

    /// The words of `markdown` as a reader sees them, on one line: emphasis, links and code
    /// marks gone, raw HTML left out, blocks joined by a space. For a page's title and its
    /// heading: "**Bold finish** at Yeouido" is "Bold finish at Yeouido".
    public static func plainText(_ markdown: String) -> String {
        let length = markdown.utf8.count
        guard let root = markdown.withCString({ cmark_parse_document($0, length, options) }) else { return "" }
        defer { cmark_node_free(root) }
        guard let iterator = cmark_iter_new(root) else { return "" }
        defer { cmark_iter_free(iterator) }
        var text = ""
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard let node = cmark_iter_get_node(iterator) else { continue }
            switch (event, cmark_node_get_type(node)) {
            case (CMARK_EVENT_ENTER, CMARK_NODE_TEXT), (CMARK_EVENT_ENTER, CMARK_NODE_CODE), (CMARK_EVENT_ENTER, CMARK_NODE_CODE_BLOCK):
                text += cmark_node_get_literal(node).map { String(cString: $0) } ?? ""
            case (CMARK_EVENT_ENTER, CMARK_NODE_SOFTBREAK), (CMARK_EVENT_ENTER, CMARK_NODE_LINEBREAK),
                 (CMARK_EVENT_EXIT, CMARK_NODE_PARAGRAPH), (CMARK_EVENT_EXIT, CMARK_NODE_HEADING):
                text += " "
            default:
                continue
            }
        }
        return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// True when `markdown` holds raw HTML or a link a browser would run (`javascript:`,
    /// `vbscript:`, `data:`, `file:`): what rendering drops, refused outright where an admin
    /// writes a page (the operator's documents).
    public static func holdsScript(_ markdown: String) -> Bool {
        let length = markdown.utf8.count
        guard let root = markdown.withCString({ cmark_parse_document($0, length, options) }) else { return false }
        defer { cmark_node_free(root) }
        guard let iterator = cmark_iter_new(root) else { return false }
        defer { cmark_iter_free(iterator) }
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
            switch cmark_node_get_type(node) {
            case CMARK_NODE_HTML_BLOCK, CMARK_NODE_HTML_INLINE:
                return true
            case CMARK_NODE_LINK, CMARK_NODE_IMAGE:
                let url = cmark_node_get_url(node).map { String(cString: $0) } ?? ""
                let scheme = url.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
                if ["javascript:", "vbscript:", "data:", "file:"].contains(where: scheme.hasPrefix) { return true }
            default:
                continue
            }
        }
        return false
    }

    /// What a text may hold: a post everything CommonMark has; a chat message running text
    /// with its links, lists, quotes and code, but no headings (written as plain paragraphs)
    /// and no images (written as links to them).
    public enum Style: Sendable {
        case post, message
    }

    /// Renders `markdown`, linking hashtags and the mentions of users that `existingUsers`
    /// confirms (it receives every candidate username, lower-cased, once).
    public static func render(_ markdown: String, style: Style = .post, existingUsers: (Set<String>) -> Set<String>) -> Document {
        render(markdown, linkTags: true, style: style, existingUsers: existingUsers)
    }

    private static func render(_ markdown: String, linkTags: Bool, style: Style = .post, existingUsers: (Set<String>) -> Set<String>) -> Document {
        guard !markdown.isEmpty else { return Document(html: "", tags: [], mentions: []) }
        let length = markdown.utf8.count
        guard let root = markdown.withCString({ cmark_parse_document($0, length, options) }) else {
            return Document(html: "", tags: [], mentions: [])
        }
        defer { cmark_node_free(root) }
        if style == .message { flatten(root) }

        var tags: [String] = []
        var mentions: [String] = []
        if linkTags {
            let texts = mergingAdjacent(linkableTextNodes(root))
            let pieces = texts.map { node in References.split(String(cString: cmark_node_get_literal(node))) }
            let candidates = Set(pieces.flatMap { $0.compactMap(\.mention) })
            let existing = candidates.isEmpty ? [] : existingUsers(candidates)
            for (node, parts) in zip(texts, pieces) where parts.contains(where: { !$0.isText }) {
                replace(node, with: parts, existing: existing, tags: &tags, mentions: &mentions)
            }
        }
        guard let rendered = cmark_render_html(root, options) else { return Document(html: "", tags: [], mentions: []) }
        defer { free(rendered) }
        let html = String(cString: rendered).replacingOccurrences(of: "<a href=\"http", with: "<a rel=\"nofollow ugc noopener\" href=\"http")
        return Document(html: html, tags: tags, mentions: mentions)
    }

    /// Headings become paragraphs and images links to them, with their alt text as the link's.
    private static func flatten(_ root: OpaquePointer) {
        var found: [OpaquePointer] = []
        if let iterator = cmark_iter_new(root) {
            while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
                guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
                let type = cmark_node_get_type(node)
                if type == CMARK_NODE_HEADING || type == CMARK_NODE_IMAGE { found.append(node) }
            }
            cmark_iter_free(iterator)
        }
        for node in found {
            let type = cmark_node_get_type(node)
            guard let replacement = cmark_node_new(type == CMARK_NODE_HEADING ? CMARK_NODE_PARAGRAPH : CMARK_NODE_LINK) else { continue }
            if type == CMARK_NODE_IMAGE, let url = cmark_node_get_url(node) { cmark_node_set_url(replacement, url) }
            while let child = cmark_node_first_child(node) {
                cmark_node_unlink(child)
                cmark_node_append_child(replacement, child)
            }
            // An image without alt text is still a link one can see.
            if type == CMARK_NODE_IMAGE, cmark_node_first_child(replacement) == nil, let url = cmark_node_get_url(replacement) {
                cmark_node_append_child(replacement, textNode(String(cString: url)))
            }
            cmark_node_insert_before(node, replacement)
            cmark_node_unlink(node)
            cmark_node_free(node)
        }
    }

    /// Text nodes outside links and images (code spans and blocks are other node types).
    private static func linkableTextNodes(_ root: OpaquePointer) -> [OpaquePointer] {
        var nodes: [OpaquePointer] = []
        guard let iterator = cmark_iter_new(root) else { return nodes }
        defer { cmark_iter_free(iterator) }
        var linkDepth = 0
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard let node = cmark_iter_get_node(iterator) else { continue }
            let type = cmark_node_get_type(node)
            if type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE {
                linkDepth += event == CMARK_EVENT_ENTER ? 1 : -1
            } else if type == CMARK_NODE_TEXT, linkDepth == 0 {
                nodes.append(node)
            }
        }
        return nodes
    }

    /// cmark leaves unmatched emphasis delimiters (`_`, `*`) as text nodes of their own, which
    /// would cut `#han_gang` in two; joins runs of sibling text nodes into their first node.
    private static func mergingAdjacent(_ nodes: [OpaquePointer]) -> [OpaquePointer] {
        var kept: [OpaquePointer] = []
        for node in nodes {
            if let last = kept.last, cmark_node_next(last) == node {
                let joined = String(cString: cmark_node_get_literal(last)) + String(cString: cmark_node_get_literal(node))
                cmark_node_set_literal(last, joined)
                cmark_node_unlink(node)
                cmark_node_free(node)
            } else {
                kept.append(node)
            }
        }
        return kept
    }

    /// Replaces a text node by its pieces: text nodes and links for tags and known mentions.
    private static func replace(
        _ node: OpaquePointer, with parts: [References.Piece], existing: Set<String>,
        tags: inout [String], mentions: inout [String]
    ) {
        for part in parts {
            let inserted: OpaquePointer?
            switch part {
            case .text(let text):
                inserted = textNode(text)
            case .tag(let text, let tag):
                if !tags.contains(tag) { tags.append(tag) }
                inserted = linkNode(url: "/tags/" + (tag.addingPercentEncoding(withAllowedCharacters: unreserved) ?? tag), text: text)
            case .mention(let text, let username):
                if existing.contains(username) {
                    if !mentions.contains(username) { mentions.append(username) }
                    inserted = linkNode(url: "/u/" + username, text: text)
                } else {
                    inserted = textNode(text)
                }
            }
            if let inserted { cmark_node_insert_before(node, inserted) }
        }
        cmark_node_unlink(node)
        cmark_node_free(node)
    }

    private static func textNode(_ text: String) -> OpaquePointer? {
        let node = cmark_node_new(CMARK_NODE_TEXT)
        cmark_node_set_literal(node, text)
        return node
    }

    private static func linkNode(url: String, text: String) -> OpaquePointer? {
        let link = cmark_node_new(CMARK_NODE_LINK)
        cmark_node_set_url(link, url)
        cmark_node_append_child(link, textNode(text))
        return link
    }
}
