import HTTP

extension App {
    /// `POST /logout`: ends this browser's session.
    func logout(_ context: RequestContext) throws -> HTTPResponse {
        var response = redirect(to: Paths.home, flash: context.user == nil ? nil : "signed_out")
        try signOut(context.session, on: &response)
        return response
    }
}
