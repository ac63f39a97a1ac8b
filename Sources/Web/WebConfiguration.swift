import Foundation
import Network
import Storage

/// Settings of the site itself (the server's are in `HTTPServer.Configuration`).
public struct WebConfiguration: Sendable {
    public var templatesDirectory = "Templates"
    /// What the caches of rows and rendered cards keep in memory, in all.
    public var cacheBudget = CacheBudget.standard
    public var publicDirectory = "Public"
    /// Where uploaded images are kept (outside `Public/`).
    public var mediaDirectory = "data/media"
    /// Where uploaded images are kept instead when servers share them; nil: `mediaDirectory`.
    public var mediaBucket: S3Client?
    /// True when the site is served over HTTPS (behind a proxy): cookies get `Secure` and the
    /// `__Host-` prefix.
    public var secureCookies = false
    /// `.minimal` only for tests: real hashes must be `.interactive`.
    public var passwordStrength = PasswordStrength.interactive
    public var sessionLifetime = SessionLifetime()
    public var timeZone = TimeZone.current
    /// Where people reach the site; nil: absolute links follow the request's `Host`.
    public var baseURL: PublicURL?
    /// What the site calls itself where a person reads it alone, as a push's title ("한강러너스").
    public var siteName = "Moim"
    /// Distinct reporters after which content is hidden until staff review it.
    public var autoHideThreshold = 3
    /// Admins and moderators reach staff pages only after a one-time or recovery code in the
    /// session (`--require-staff-two-factor`).
    public var requireStaffTwoFactor = true
    /// Who runs the site, in the footer of every page (Korea's e-commerce act asks it of
    /// every page that sells); nil: not given.
    public var business: BusinessDetails?
    public var newAccountLimits = NewAccountLimits()
    /// The mail server; nil: the site sends no mail.
    public var mail: MailConfiguration?
    /// Counts requests for `GET /metrics`; nil: no metrics page.
    public var metrics: Metrics?
    /// Lets `GET /metrics` answer other addresses than loopback, sent as `Authorization: Bearer …`.
    public var metricsToken: String?

    /// The map tile server; nil: maps are drawn without tiles (and without the network).
    public var tiles: TileSource?
    /// Where fetched tiles are kept.
    public var tileDirectory = "data/tiles"

    /// Pushing notifications to members' devices; nil: no Web Push.
    public var push: PushConfiguration?

    /// Payment providers for crew fees and dues; nil: staff record payments by hand.
    public var payments: PaymentsConfiguration?

    /// Sign-in providers (OpenID Connect), in the order their buttons appear.
    public var providers: [OpenIDProvider.Configuration] = []

    /// Discourse-style caps for accounts in their first days.
    public struct NewAccountLimits: Sendable {
        /// How long an account counts as new.
        public var days = 3
        /// Most of each kind per 24 hours while new.
        public var perDay: [AppDatabase.Creation: Int] = [.posts: 5, .comments: 20, .meetups: 1, .crews: 1, .messages: 200]
        /// Most links in one post while new.
        public var links = 2

        public init() {}
    }

    /// Argon2id cost: `interactive` is libsodium's (and OWASP's) choice for logins (64 MiB,
    /// t=2); `minimal` only keeps the test suite fast.
    public enum PasswordStrength: Sendable {
        case interactive, minimal
    }

    public init() {}
}

/// The operator's business details (상호, 대표자, 사업자등록번호, 통신판매업 신고번호, address,
/// contact), from `--business-file` or the `--business-…` flags. Empty ones are left out.
public struct BusinessDetails: Codable, Sendable, Equatable {
    public var name: String = ""
    public var representative: String = ""
    public var registration: String = ""
    public var mailOrder: String = ""
    public var address: String = ""
    public var contact: String = ""

    public init() {}

    /// A file may leave any field out.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func field(_ key: CodingKeys) throws -> String { try container.decodeIfPresent(String.self, forKey: key) ?? "" }
        name = try field(.name)
        representative = try field(.representative)
        registration = try field(.registration)
        mailOrder = try field(.mailOrder)
        address = try field(.address)
        contact = try field(.contact)
    }

    /// Nil when every field is empty.
    public var given: BusinessDetails? {
        [name, representative, registration, mailOrder, address, contact].allSatisfy(\.isEmpty) ? nil : self
    }
}
