import HTTP

/// Every URL the site links to, in one place. Users bookmark these: keep them stable.
enum Paths {
    static let home = "/"
    static let signup = "/signup"
    static let login = "/login"
    static let logout = "/logout"
    static let settings = "/settings"
    static let settingsPassword = "/settings/password"
    static let language = "/language"
    static let search = "/search"

    static func profile(_ username: String) -> String {
        "/u/" + PercentEncoding.encode(username)
    }

    static func login(next: String) -> String {
        next == home ? login : login + "?next=" + PercentEncoding.encode(next)
    }

    /// `path` if it is a path on this site, else the home page: never redirect off-site.
    static func local(_ path: String?) -> String {
        guard let path, path.hasPrefix("/"), !path.hasPrefix("//"), !path.hasPrefix("/\\"),
              !path.contains(where: { $0.isNewline || $0 == "\0" })
        else { return home }
        return path
    }
}
