/// The `Content-Security-Policy` every page is sent: nothing but the site's own resources,
/// no inline script, no framing; a page that needs a provider's script or window names it.
extension App {
    /// The site's policy with a page's own additions.
    static func pageSecurityPolicy(script: [String] = [], formAction: [String] = [], frame: [String] = [], connect: [String] = []) -> String {
        let extra = { (list: [String]) in list.isEmpty ? "" : " " + list.joined(separator: " ") }
        return "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'\(extra(script)); "
            + "form-action 'self'\(extra(formAction)); frame-ancestors 'none'; base-uri 'none'; object-src 'none'"
            + (frame.isEmpty ? "" : "; frame-src\(extra(frame))") + (connect.isEmpty ? "" : "; connect-src 'self'\(extra(connect))")
    }
}
