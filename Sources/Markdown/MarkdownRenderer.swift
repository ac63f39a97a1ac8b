import CCmark

#if canImport(Glibc)
import Glibc
#endif

/// CommonMark to HTML through the system libcmark, in its safe mode: raw HTML is replaced
/// by a comment and `javascript:`, `vbscript:`, `file:` and non-image `data:` links are emptied.
public enum MarkdownRenderer {
    /// HTML for `markdown`; the result is safe to insert into a page unescaped.
    public static func html(_ markdown: String) -> String {
        let options = CMARK_OPT_SMART | CMARK_OPT_VALIDATE_UTF8
        guard !markdown.isEmpty else { return "" }
        let length = markdown.utf8.count
        return markdown.withCString { source in
            guard let rendered = cmark_markdown_to_html(source, length, options) else { return "" }
            defer { free(rendered) }
            return String(cString: rendered)
        }
    }
}
