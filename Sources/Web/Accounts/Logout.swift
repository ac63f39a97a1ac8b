import HTTP

/// `GET /logout`: someone who typed the address gets a page with the button (a GET never
/// signs anyone out, so that a link or an image cannot).
struct LogoutView: PageView {
    static let template = "logout"
}

extension App {
    func logoutShow(_ context: RequestContext) throws -> HTTPResponse {
        page(LogoutView(), context, title: localizer.text(.layout.logout, context.language))
    }

    /// `POST /logout`: ends this browser's session.
    func logout(_ context: RequestContext) throws -> HTTPResponse {
        var response = redirect(to: Paths.home, flash: context.user == nil ? nil : \.signed_out)
        try signOut(context.session, on: &response)
        return response
    }
}
