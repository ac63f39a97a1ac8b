import ArgumentParser
import Foundation
import HTTP
import Mail
import Network
import Storage
import Web

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Migrate the database, then serve the site until SIGINT or SIGTERM.")

    @Option(help: "Address to listen on (env MOIM_HOST).")
    var host: String = Environment.value("MOIM_HOST") ?? "127.0.0.1"

    @Option(help: "Port to listen on (env MOIM_PORT).")
    var port: Int = Environment.value("MOIM_PORT").flatMap(Int.init) ?? 8080

    @OptionGroup var dataOptions: DataOptions

    @OptionGroup var paymentOptions: PaymentOptions

    @Option(name: .customLong("push-allow-host"), help: "A push service host allowed though not public https, for tests (repeatable; env MOIM_PUSH_ALLOW_HOSTS, comma-separated).")
    var pushAllowedHosts: [String] = Environment.value("MOIM_PUSH_ALLOW_HOSTS")?.split(separator: ",").map(String.init) ?? []

    @Option(help: "Folder of the Mustache templates (env MOIM_TEMPLATES).")
    var templates: String = Environment.value("MOIM_TEMPLATES") ?? "./Templates"

    @Option(name: .customLong("public"), help: "Folder of static files (env MOIM_PUBLIC).")
    var publicDirectory: String = Environment.value("MOIM_PUBLIC") ?? "./Public"

    @Option(help: "Event-loop threads (env MOIM_LOOPS).")
    var loops: Int = Environment.value("MOIM_LOOPS").flatMap(Int.init) ?? 2

    @Option(help: "Handler threads (env MOIM_HANDLERS).")
    var handlers: Int = Environment.value("MOIM_HANDLERS").flatMap(Int.init) ?? 8

    @Option(name: .customLong("max-connections"), help: "Connections open at once, event streams included; lowered to fit the descriptor limit (env MOIM_MAX_CONNECTIONS).")
    var maxConnections: Int = Environment.value("MOIM_MAX_CONNECTIONS").flatMap(Int.init) ?? 4096

    @Flag(help: "The site is reached over HTTPS: Secure, __Host- cookies (env MOIM_SECURE_COOKIES=1).")
    var secureCookies = Environment.value("MOIM_SECURE_COOKIES") == "1"

    @Option(help: "Time zone for meetup times and dates, e.g. Asia/Seoul (env MOIM_TIME_ZONE; default: the system's).")
    var timeZone: String = Environment.value("MOIM_TIME_ZONE") ?? TimeZone.current.identifier

    @Option(name: .customLong("base-url"), help: "The address people reach the site at, e.g. https://run.example.org, for calendar files and feeds (env MOIM_BASE_URL; default: the request's Host).")
    var baseURLFlag: String?

    @Option(name: .customLong("smtp-url"), help: "The mail server, smtp://user:pass@host:587 (STARTTLS when offered) or smtps://…:465 (env MOIM_SMTP_URL; default: no mail). Needs --base-url.")
    var smtpURLFlag: String?

    @Option(name: .customLong("mail-from"), help: "The sender of the site's mail, e.g. 'Moim <moim@run.example.org>' (env MOIM_MAIL_FROM; default: moim@ the base URL's host).")
    var mailFromFlag: String?

    @Option(name: .customLong("smtp-ca-file"), help: "PEM certificates to trust for the mail server beside the system's, e.g. a private relay's CA (env MOIM_SMTP_CA_FILE).")
    var smtpCAFileFlag: String?

    @Option(help: "Seconds to wait before retrying mail the server did not take; doubles each time, up to an hour (env MOIM_MAIL_RETRY).")
    var mailRetry: Int = Environment.value("MOIM_MAIL_RETRY").flatMap(Int.init) ?? 60

    @Option(name: .customLong("trusted-proxy"), help: "A proxy in front of Moim, e.g. 127.0.0.1 or 10.0.0.0/8 (repeat for more; env MOIM_TRUSTED_PROXIES, comma-separated): only from these are X-Forwarded-For and X-Forwarded-Proto believed.")
    var trustedProxies: [String] = (Environment.value("MOIM_TRUSTED_PROXIES") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }

    @Option(name: .customLong("metrics-token"), help: "A secret that lets GET /metrics answer beyond loopback, sent as 'Authorization: Bearer SECRET' (env MOIM_METRICS_TOKEN).")
    var metricsTokenFlag: String?

    @Option(name: .customLong("tile-url"), help: "A map tile server as an XYZ template, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png: Moim fetches and caches the tiles and serves them itself (env MOIM_TILE_URL; default: maps without tiles, no network).")
    var tileURLFlag: String?

    @Option(name: .customLong("tile-attribution"), help: "The credit the tile server's licence asks for, shown on every map, e.g. '© OpenStreetMap contributors' (env MOIM_TILE_ATTRIBUTION; required with --tile-url).")
    var tileAttributionFlag: String?

    @Option(name: .customLong("tile-cache-size"), help: "Most disk the tile cache in DATA/tiles takes, e.g. 512M or 2G (env MOIM_TILE_CACHE_SIZE).")
    var tileCacheSize: String = Environment.value("MOIM_TILE_CACHE_SIZE") ?? "256M"

    @Option(name: .customLong("tile-timeout"), help: "Seconds to wait for one tile before the map shows its background there (env MOIM_TILE_TIMEOUT).")
    var tileTimeout: Int = Environment.value("MOIM_TILE_TIMEOUT").flatMap(Int.init) ?? 3

    @Option(name: .customLong("sign-in-file"), help: "A JSON file of sign-in providers instead of (or beside) their flags: {\"kakao\": {\"client_id\": …, \"client_secret\": …}, \"naver\": …, \"google\": …, \"apple\": {…, \"team_id\", \"key_id\", \"private_key_file\"}, \"oidc\": {\"issuer\", …, \"name\"}} (env MOIM_SIGN_IN_FILE).")
    var signInFileFlag: String?
    @Option(name: .customLong("kakao-client-id"), help: "Sign in with Kakao: the REST API key of your Kakao app (env MOIM_KAKAO_CLIENT_ID; with --kakao-client-secret).")
    var kakaoClientIDFlag: String?
    @Option(name: .customLong("kakao-client-secret"), help: "Sign in with Kakao: the app's client secret (env MOIM_KAKAO_CLIENT_SECRET).")
    var kakaoClientSecretFlag: String?
    @Option(name: .customLong("naver-client-id"), help: "Sign in with Naver: the Client ID of your Naver Developers application (env MOIM_NAVER_CLIENT_ID; with --naver-client-secret).")
    var naverClientIDFlag: String?
    @Option(name: .customLong("naver-client-secret"), help: "Sign in with Naver: the application's Client Secret (env MOIM_NAVER_CLIENT_SECRET).")
    var naverClientSecretFlag: String?
    @Option(name: .customLong("google-client-id"), help: "Sign in with Google: the OAuth client id (env MOIM_GOOGLE_CLIENT_ID; with --google-client-secret).")
    var googleClientIDFlag: String?
    @Option(name: .customLong("google-client-secret"), help: "Sign in with Google: the OAuth client secret (env MOIM_GOOGLE_CLIENT_SECRET).")
    var googleClientSecretFlag: String?
    @Option(name: .customLong("apple-client-id"), help: "Sign in with Apple: the Services ID (env MOIM_APPLE_CLIENT_ID; with --apple-team-id, --apple-key-id and --apple-private-key).")
    var appleClientIDFlag: String?
    @Option(name: .customLong("apple-team-id"), help: "Sign in with Apple: your team id (env MOIM_APPLE_TEAM_ID).")
    var appleTeamIDFlag: String?
    @Option(name: .customLong("apple-key-id"), help: "Sign in with Apple: the id of the key below (env MOIM_APPLE_KEY_ID).")
    var appleKeyIDFlag: String?
    @Option(name: .customLong("apple-private-key"), help: "Sign in with Apple: the .p8 key file Moim signs its client secret with (env MOIM_APPLE_PRIVATE_KEY).")
    var applePrivateKeyFlag: String?
    @Option(name: .customLong("oidc-issuer"), help: "Sign in with any OpenID Connect provider (a club's Keycloak or Authentik, a company's Google Workspace) by its issuer URL (env MOIM_OIDC_ISSUER; with --oidc-client-id, --oidc-client-secret and --oidc-name).")
    var oidcIssuerFlag: String?
    @Option(name: .customLong("oidc-client-id"), help: "The client id Moim is registered with at --oidc-issuer (env MOIM_OIDC_CLIENT_ID).")
    var oidcClientIDFlag: String?
    @Option(name: .customLong("oidc-client-secret"), help: "Its client secret (env MOIM_OIDC_CLIENT_SECRET).")
    var oidcClientSecretFlag: String?
    @Option(name: .customLong("oidc-name"), help: "The provider's name on its button, e.g. 'Hangang Runners SSO' (env MOIM_OIDC_NAME).")
    var oidcNameFlag: String?

    @Option(help: "SQLite copies the WAL back into the database once it holds this many pages; 0 leaves it to Litestream (env MOIM_WAL_AUTOCHECKPOINT; script/replicate sets 0).")
    var walAutocheckpoint: Int = Environment.value("MOIM_WAL_AUTOCHECKPOINT").flatMap(Int.init) ?? 1_000

    @Flag(help: "Do not print an access-log line per request (env MOIM_QUIET=1).")
    var quiet = Environment.value("MOIM_QUIET") == "1"

    @Flag(inversion: .prefixedNo, help: "Run the server in a child process that a supervising parent restarts if it dies (env MOIM_SUPERVISE=0 to turn off).")
    var supervise = Environment.value("MOIM_SUPERVISE") != "0"

    // Optional flags read their environment twin here (ArgumentParser wants no default on an optional).
    private var baseURL: String? { baseURLFlag ?? Environment.value("MOIM_BASE_URL") }
    private var smtpURL: String? { smtpURLFlag ?? Environment.value("MOIM_SMTP_URL") }
    private var mailFrom: String? { mailFromFlag ?? Environment.value("MOIM_MAIL_FROM") }
    private var smtpCAFile: String? { smtpCAFileFlag ?? Environment.value("MOIM_SMTP_CA_FILE") }
    private var metricsToken: String? { metricsTokenFlag ?? Environment.value("MOIM_METRICS_TOKEN") }
    private var tileURL: String? { tileURLFlag ?? Environment.value("MOIM_TILE_URL") }
    private func flag(_ value: String?, _ name: String) -> String? { value ?? Environment.value(name) }
    private var tileAttribution: String? { tileAttributionFlag ?? Environment.value("MOIM_TILE_ATTRIBUTION") }

    func run() throws {
        guard let zone = TimeZone(identifier: timeZone) else { throw ValidationError("Unknown time zone \(timeZone).") }
        if let baseURL, PublicURL(baseURL) == nil {
            throw ValidationError("--base-url must look like https://run.example.org (http or https, a host, no path).")
        }
        _ = try mailConfiguration()
        _ = try proxies()
        if let inherited = try Supervisor.inheritance() {
            try serve(zone, listener: inherited.listener, witness: inherited.table)
        } else if supervise {
            // Migrate here, once, so that a database that cannot open fails with one clear
            // message instead of a child dying again and again.
            try dataOptions.open().close()
            let listener = try HTTPServer.listen(host: host, port: port)
            print("Moim is listening on http://\(host):\(HTTPServer.boundPort(listener)) (\(dataOptions.location))")
            fflush(nil)
            let status = Supervisor(listener: listener, arguments: CommandLine.arguments).run()
            print("Stopped.")
            throw ExitCode(status)
        } else {
            try serve(zone, listener: nil, witness: nil)
        }
    }

    private func serve(_ zone: TimeZone, listener: Int32?, witness: (any RequestWitness)?) throws {
        // Block the stop signals in every thread (threads inherit the mask) and wait for
        // them here, so that stopping runs on an ordinary thread, not in a signal handler.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)

        // A handler waiting for PostgreSQL's answer leaves its processor to another page (set
        // before the database opens, and with it the threads that read this).
        PostgresWaiting.run = { wait in HandlerPool.waiting(wait) }
        let database = try dataOptions.open(walAutocheckpoint: walAutocheckpoint, serving: true)
        var web = WebConfiguration()
        web.templatesDirectory = templates
        web.publicDirectory = publicDirectory
        web.mediaDirectory = dataOptions.data + "/media"
        web.mediaBucket = try dataOptions.mediaBucket()
        if let bucket = web.mediaBucket {
            do {
                try bucket.check()
            } catch {
                throw MediaUnavailable(bucket: bucket.location.description, reason: error.description)
            }
        }
        web.secureCookies = secureCookies
        web.timeZone = zone
        web.baseURL = baseURL.flatMap(PublicURL.init)
        web.mail = try mailConfiguration()
        let metrics = Metrics()
        web.metrics = metrics
        web.metricsToken = metricsToken
        web.tiles = try tileSource()
        web.providers = try signInProviders()
        web.payments = try paymentOptions.configuration()
        // Web Push needs nothing from outside but an address to be reached at (VAPID's contact).
        if let site = web.baseURL {
            var push = PushConfiguration(subject: web.mail.map { "mailto:" + $0.from.address } ?? site.origin)
            push.allowedHosts = Set(pushAllowedHosts)
            web.push = push
        }
        if web.payments != nil, web.baseURL == nil {
            throw ValidationError("payment providers need --base-url: it is the address they send members back to.")
        }
        web.tileDirectory = dataOptions.data + "/tiles"
        let app = try App(database: database, configuration: web)

        var http = HTTPServer.Configuration()
        http.host = host
        http.port = port
        http.eventLoops = loops
        http.handlerThreads = handlers
        http.maxConnections = max(1, maxConnections)
        http.accessLog = !quiet
        http.trustedProxies = try proxies()
        http.observer = metrics
        http.listener = listener
        http.witness = witness
        let server = HTTPServer(configuration: http, handler: app)
        try server.start()
        metrics.attach(server)
        startSweeping(app)
        app.startMailing()
        app.startPushing()
        if listener == nil {
            print("Moim is listening on http://\(host):\(server.port) (\(dataOptions.location))")
        }
        fflush(nil)
        Supervisor.announceReady()

        var received: Int32 = 0
        sigwait(&signals, &received)
        print("Stopping: finishing requests in flight…")
        fflush(nil)
        server.stop()
        try database.close()
        if listener == nil { print("Stopped.") }
    }

    private func proxies() throws -> TrustedProxies {
        let ranges = try trustedProxies.map { text in
            guard let range = AddressRange(text) else { throw ValidationError("--trusted-proxy \(text) is not an address or a block such as 10.0.0.0/8.") }
            return range
        }
        return TrustedProxies(ranges)
    }

    /// The mail settings, checked: nil without --smtp-url.
    /// The sign-in providers turned on by `--sign-in-file` and the flags (never the same field both ways).
    private func signInProviders() throws -> [OpenIDProvider.Configuration] {
        var settings = try flag(signInFileFlag, "MOIM_SIGN_IN_FILE").map { try SignInSettings(file: $0) } ?? SignInSettings()
        let flags: [(String, String, String?, String)] = [
            ("kakao", "client_id", kakaoClientIDFlag, "MOIM_KAKAO_CLIENT_ID"), ("kakao", "client_secret", kakaoClientSecretFlag, "MOIM_KAKAO_CLIENT_SECRET"),
            ("naver", "client_id", naverClientIDFlag, "MOIM_NAVER_CLIENT_ID"), ("naver", "client_secret", naverClientSecretFlag, "MOIM_NAVER_CLIENT_SECRET"),
            ("google", "client_id", googleClientIDFlag, "MOIM_GOOGLE_CLIENT_ID"), ("google", "client_secret", googleClientSecretFlag, "MOIM_GOOGLE_CLIENT_SECRET"),
            ("apple", "client_id", appleClientIDFlag, "MOIM_APPLE_CLIENT_ID"), ("apple", "team_id", appleTeamIDFlag, "MOIM_APPLE_TEAM_ID"),
            ("apple", "key_id", appleKeyIDFlag, "MOIM_APPLE_KEY_ID"), ("apple", "private_key_file", applePrivateKeyFlag, "MOIM_APPLE_PRIVATE_KEY"),
            ("oidc", "issuer", oidcIssuerFlag, "MOIM_OIDC_ISSUER"), ("oidc", "client_id", oidcClientIDFlag, "MOIM_OIDC_CLIENT_ID"),
            ("oidc", "client_secret", oidcClientSecretFlag, "MOIM_OIDC_CLIENT_SECRET"), ("oidc", "name", oidcNameFlag, "MOIM_OIDC_NAME"),
        ]
        for (provider, field, value, environment) in flags { try settings.set(provider, field, flag(value, environment)) }
        let providers = try settings.providers()
        if !providers.isEmpty, baseURL == nil {
            throw ValidationError("sign-in providers need --base-url: it is the address they send people back to.")
        }
        return providers
    }

    private func tileSource() throws -> TileSource? {
        guard let tileURL else { return nil }
        guard let attribution = tileAttribution?.trimmingCharacters(in: .whitespaces), !attribution.isEmpty else {
            throw ValidationError("--tile-url needs --tile-attribution: tile licences ask for their credit on every map.")
        }
        guard var source = TileSource(template: tileURL, attribution: attribution) else {
            throw ValidationError("--tile-url must be an http(s) URL with {z}, {x} and {y} in its path, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png")
        }
        guard let size = byteSize(tileCacheSize), size >= 1 << 20 else {
            throw ValidationError("--tile-cache-size must be a size of at least 1M, e.g. 512M or 2G.")
        }
        guard (1...60).contains(tileTimeout) else { throw ValidationError("--tile-timeout must be 1 to 60 seconds.") }
        source.cacheSize = size
        source.timeout = tileTimeout
        return source
    }

    private func mailConfiguration() throws -> MailConfiguration? {
        guard let smtpURL else { return nil }
        guard let server = SMTPServer(url: smtpURL) else {
            throw ValidationError("--smtp-url must look like smtp://user:pass@host:587 or smtps://user:pass@host:465 (percent-encode @ and : inside the password).")
        }
        guard let site = baseURL.flatMap(PublicURL.init) else {
            throw ValidationError("--smtp-url needs --base-url: mail carries absolute links to the site.")
        }
        guard let from = Self.mailbox(mailFrom ?? "Moim <moim@\(site.host)>") else {
            throw ValidationError("--mail-from must look like 'Moim <moim@run.example.org>' or moim@run.example.org.")
        }
        guard (1...3_600).contains(mailRetry) else { throw ValidationError("--mail-retry must be between 1 and 3600 seconds.") }
        var configuration = MailConfiguration(server: server, from: from)
        configuration.trustedCertificates = smtpCAFile
        configuration.firstRetry = TimeInterval(mailRetry)
        return configuration
    }

    /// `Name <address>` or a bare address.
    static func mailbox(_ text: String) -> MailAddress? {
        let text = text.trimmingCharacters(in: .whitespaces)
        var name = "", address = text
        if text.hasSuffix(">"), let open = text.lastIndex(of: "<") {
            name = text[..<open].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            address = String(text[text.index(after: open)..<text.index(before: text.endIndex)])
        }
        let mailbox = MailAddress(name: name, address: address)
        // The same checks a message makes: no way to break a header from here either.
        guard (try? MailMessage(from: mailbox, to: mailbox, subject: "", text: "", html: "", domain: "check").rendered()) != nil else { return nil }
        return mailbox
    }

    /// Deadlines that pass while nobody opens the page (a lottery's draw, a place not
    /// re-confirmed): at start, so that what fell due while the server was down happens now,
    /// then every minute.
    private func startSweeping(_ app: App) {
        Thread.detachNewThread {
            while true {
                do {
                    try app.sweep()
                } catch {
                    FileHandle.standardError.write(Data("sweep failed: \(error)\n".utf8))
                }
                Thread.sleep(forTimeInterval: 60)
            }
        }
    }
}

/// A size as people write it: 1048576, 512K, 256M, 2G (up to a terabyte).
func byteSize(_ text: String) -> Int? {
    let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40]
    let upper = text.uppercased().replacingOccurrences(of: "B", with: "")
    let unit = upper.last.flatMap { units[$0] }
    let digits = unit == nil ? upper : String(upper.dropLast())
    guard digits.utf8.count <= 13, let number = Int(digits), number >= 0 else { return nil }
    let (size, overflow) = number.multipliedReportingOverflow(by: unit ?? 1)
    return overflow || size > 1 << 40 ? nil : size
}
