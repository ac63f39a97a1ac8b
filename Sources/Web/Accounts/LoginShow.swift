import HTTP

extension App {
    /// `GET /login`
    func loginShow(_ context: RequestContext) throws -> HTTPResponse {
        let next = Paths.local(context.form["next"])
        guard context.user == nil else { return .redirect(to: next) }
        return try renderLogin(login: "", next: next, error: nil, context)
    }

    func renderLogin(login: String, next: String, error: String?, status: HTTPStatus? = nil, _ context: RequestContext) throws -> HTTPResponse {
        try render(
            "login", context, title: localizer.text("login.title", context.language),
            status: status ?? (error == nil ? .ok : .unprocessableContent),
            [
                "login": login,
                "next": next,
                "error": error.map { localizer.text($0, context.language) } as Any,
            ]
        )
    }
}
