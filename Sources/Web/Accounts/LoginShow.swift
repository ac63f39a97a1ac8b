import HTTP

/// The sign-in form.
struct LoginView: PageView {
    static let template = "login"
    let login: String
    /// Where to go once signed in.
    let next: String
    var passkeyNext: String { next }
    var signupURL: String { Paths.signup(next: next) }
    let error: String?
    /// "Continue with …" for each sign-in provider.
    let providers: [ProviderButton]
    var hasProviders: Bool { !providers.isEmpty }
}

extension App {
    /// `GET /login`
    func loginShow(_ context: RequestContext) throws -> HTTPResponse {
        let next = Paths.local(context.form["next"])
        guard context.user == nil else { return .redirect(to: next) }
        return renderLogin(login: "", next: next, error: nil, context)
    }

    func renderLogin(login: String, next: String, error: TextKey?, status: HTTPStatus? = nil, _ context: RequestContext) -> HTTPResponse {
        page(
            LoginView(login: login, next: next, error: error.map { localizer.text($0, context.language) }, providers: providerButtons(next: next)),
            context, title: localizer.text(.login.title, context.language),
            status: status ?? (error == nil ? .ok : .unprocessableContent)
        )
    }
}
