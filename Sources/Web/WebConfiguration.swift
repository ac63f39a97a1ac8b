import Foundation
import Storage

/// Settings of the site itself (the server's are in `HTTPServer.Configuration`).
public struct WebConfiguration: Sendable {
    public var templatesDirectory = "Templates"
    public var publicDirectory = "Public"
    /// Where uploaded images are kept (outside `Public/`).
    public var mediaDirectory = "data/media"
    /// True when the site is served over HTTPS (behind a proxy): cookies get `Secure` and the
    /// `__Host-` prefix.
    public var secureCookies = false
    /// `.minimal` only for tests: real hashes must be `.interactive`.
    public var passwordStrength = PasswordStrength.interactive
    public var sessionLifetime = SessionLifetime()
    public var timeZone = TimeZone.current

    /// Argon2id cost: `interactive` is libsodium's (and OWASP's) choice for logins (64 MiB,
    /// t=2); `minimal` only keeps the test suite fast.
    public enum PasswordStrength: Sendable {
        case interactive, minimal
    }

    public init() {}
}
