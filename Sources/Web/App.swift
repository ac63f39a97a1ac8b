import Formats
import Foundation
import HTTP
import Imaging
import Network
import Storage

/// The Moim site: everything a request needs, and the route table that dispatches it.
public final class App: HTTPHandler, @unchecked Sendable {
    let database: AppDatabase
    let configuration: WebConfiguration
    let localizer: Localizer
    let passwords: PasswordHasher
    let loginThrottle: LoginThrottle
    let signupLimit: RateLimiter
    /// Password-reset requests per network.
    let resetLimit: RateLimiter
    /// Workplace codes a member may ask for (each is a mail to an address we do not know).
    let workplaceCodeLimit: RateLimiter
    /// Messages a member may send in a minute, whatever the room: a flood is 429.
    let talkFlood: RateLimiter
    /// Wrong one-time or recovery codes a member may type in five minutes.
    let codeAttempts: RateLimiter
    /// Delivers the outbox; nil when the site has no mail server.
    let mailSender: MailSender?
    let staticFiles: StaticFiles
    let media: MediaStore
    /// Records what staff enter in a crew's ledger by hand.
    let duesCollector: any DuesCollector = ManualDuesCollector()
    /// The payment providers members pay fees and dues through; none: staff record by hand.
    let paymentProviders: PaymentProviders
    /// Delivers the push queue; nil when the site pushes nothing.
    let pushSender: PushSender?
    /// `/sw.js`, with the release's revision in it.
    let serviceWorkerScript: ServiceWorkerScript
    let cookies: CookieNames
    /// Explore's "N members so far", counted at most once a minute (a count of every member
    /// on each visit was most of the page's time on PostgreSQL).
    let memberCount = Refreshed<Int>(lifetime: 60)
    /// The latest version of each of the operator's documents (`currentDocuments`).
    let documentVersions = Refreshed<DocumentVersions>(lifetime: 10)
    /// Post cards' and comments' bylines and bodies, rendered once per item and language; a
    /// post card's kept while the post's revision stands.
    let postCards: FragmentCache<Int64>
    let searchIndexMerges = SearchIndexMerges()
    let commentCards: FragmentCache<CommentSource>
    let meetupCards: FragmentCache<MeetupCardSource>
    /// The open event streams (`GET /events`).
    let live: LiveStreams
    /// Map tiles from the operator's tile server; nil without one.
    let tiles: MapTiles?
    /// Sign-in providers, in the order their buttons appear.
    let providers: [OpenIDProvider]
    /// Verified against when a login names no account, so both cases cost one hash.
    let dummyPasswordHash: String
    // Set once in init, read-only afterwards.
    private(set) var router = HTTPRouter()

    /// Every decoding slot stayed busy while an upload waited.
    static let imagesBusy = HTTPError(
        .serviceUnavailable, message: "Photos are being prepared for many people just now. Please try again in a moment.",
        headers: ["Retry-After": "5"])

    public init(database: AppDatabase, configuration: WebConfiguration) throws {
        self.database = database
        self.configuration = configuration
        let budget = configuration.cacheBudget
        database.keepInMemory(budget)
        postCards = FragmentCache(limit: budget.bytes(for: .postCards))
        commentCards = FragmentCache(limit: budget.bytes(for: .commentCards))
        meetupCards = FragmentCache(limit: budget.bytes(for: .meetupCards))
        loginThrottle = LoginThrottle(database: database)
        signupLimit = RateLimiter("signup", limit: 10, window: 3600, database: database)
        resetLimit = RateLimiter("reset", limit: 5, window: 3600, database: database)
        workplaceCodeLimit = RateLimiter("workplace-code", limit: 3, window: 3600, database: database)
        talkFlood = RateLimiter("talk", limit: 30, window: 60, database: database)
        codeAttempts = RateLimiter("two-factor", limit: 5, window: 300, database: database)
        localizer = try Localizer(directory: configuration.templatesDirectory + "/i18n", timeZone: configuration.timeZone)
        passwords = PasswordHasher(strength: configuration.passwordStrength, pool: BoundedPool(threads: 2, queueLimit: 32))
        staticFiles = StaticFiles(root: configuration.publicDirectory)
        let images = ImageProcessor()
        media = try configuration.mediaBucket.map { MediaStore(bucket: $0, images: images) }
            ?? MediaStore(directory: configuration.mediaDirectory, images: images)
        cookies = CookieNames(secure: configuration.secureCookies)
        dummyPasswordHash = try passwords.hash(Crypto.randomToken())
        tiles = try configuration.tiles.map { source in
            let site = configuration.baseURL.map { " (+\($0.origin))" } ?? ""
            return try MapTiles(source: source, directory: configuration.tileDirectory, userAgent: "Moim/1.0 self-hosted community site\(site)")
        }
        providers = configuration.providers.map { OpenIDProvider($0) }
        paymentProviders = PaymentProviders(configuration.payments)
        pushSender = try configuration.push.map { try PushSender(database: database, configuration: $0) }
        serviceWorkerScript = ServiceWorkerScript(publicDirectory: configuration.publicDirectory)
        live = LiveStreams(database: database, lifetime: configuration.sessionLifetime, render: LiveRendering(localizer: localizer))
        mailSender = try configuration.mail.map { mail in
            // Links in mail are absolute, and mail has no request to take the site's address from.
            guard let baseURL = configuration.baseURL else { throw ConfigurationError("sending mail needs the site's public base URL (--base-url)") }
            return MailSender(database: database, configuration: mail, heloName: baseURL.host)
        }
        router = Routes.router(for: self)
    }

    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        router.handle(request)
    }

    public func immediateResponse(to request: HTTPRequest) -> HTTPResponse? {
        router.immediateResponse(to: request)
    }

    /// Only a signed-in member posting to a form that takes files may send a body past the
    /// ordinary 1 MiB, so that nobody else can make the server hold 30 MiB per connection.
    public func allowsUpload(_ head: HTTPRequest) -> Bool {
        guard router.takesFiles(head) else { return false }
        return ((try? currentSession(head.cookies)) ?? nil) != nil
    }

    /// Requests the server refused (too large, malformed) get the site's error page too.
    public func refusal(_ error: HTTPError, for request: HTTPRequest) -> HTTPResponse {
        var response = errorResponse(error, request: request, context: nil)
        finish(&response, context: nil)
        return response
    }
}

extension App {
    /// The configured public base URL, else the one the request came in by.
    func publicURL(_ context: RequestContext) -> PublicURL {
        configuration.baseURL ?? PublicURL(requestHost: context.request.headers["host"], secure: configuration.secureCookies || context.request.isSecure)
    }
}

public struct ConfigurationError: Error, CustomStringConvertible, Equatable {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// Cookie names; behind HTTPS the `__Host-` prefix stops subdomains from planting them.
struct CookieNames: Sendable {
    let secure: Bool
    let session: String
    let csrf: String
    let flash: String
    let language: String
    /// A sign-in's `state`, while the browser is at the provider.
    let signIn: String
    /// A newcomer's provider account, while they pick a username.
    let pendingIdentity: String
    /// Where this browser's last write ended in the primary's log, with read replicas.
    let wrote: String

    init(secure: Bool) {
        self.secure = secure
        let prefix = secure ? "__Host-" : ""
        session = prefix + "moim_session"
        csrf = prefix + "moim_csrf"
        flash = prefix + "moim_flash"
        language = prefix + "moim_lang"
        signIn = prefix + "moim_signin"
        pendingIdentity = prefix + "moim_newcomer"
        wrote = prefix + "moim_wrote"
    }
}
