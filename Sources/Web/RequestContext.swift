import HTTP
import Storage

/// What a handler knows about the request beyond its bytes: who is asking, in which
/// language, the form they sent, and the CSRF token to put in the forms it renders.
struct RequestContext {
    let request: HTTPRequest
    let language: Language
    let user: User?
    let session: Session?
    /// Unread notifications and warnings, read with the session; a handler that changes them
    /// before rendering updates this copy.
    var notices: PageNotices
    let csrfToken: String
    /// A new anonymous CSRF token that the response must set as a cookie.
    let issuesCSRFCookie: Bool
    /// The url-encoded body of a POST (already checked against CSRF), or the query of a GET.
    let form: URLEncodedForm
    /// Files of a `multipart/form-data` POST.
    let files: [MultipartForm.File]
    /// A one-time message key carried over a redirect.
    let flash: String?

    /// The signed-in user, or a redirect to the login page that comes back here.
    func requireUser() throws -> User {
        guard let user else {
            throw Redirect(to: Paths.login(next: request.method == .get ? request.target : Paths.home))
        }
        return user
    }
}

/// Thrown to answer with a redirect from deep inside a handler (e.g. "log in first").
struct Redirect: Error {
    let location: String

    init(to location: String) {
        self.location = location
    }
}
