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

    @Option(name: .customLong("site-name"), help: "The site's name as people read it, e.g. on a phone's lock screen (env MOIM_SITE_NAME; default: Moim).")
    var siteName: String = Environment.value("MOIM_SITE_NAME") ?? "Moim"

    @Option(name: .customLong("business-file"), help: "A JSON file of the operator's business details, shown in every page's footer: {\"name\", \"representative\", \"registration\", \"mailOrder\", \"address\", \"contact\"} (env MOIM_BUSINESS_FILE). The --business-… flags override its fields.")
    var businessFile: String?

    @Option(name: .customLong("business-name"), help: "상호: the operator's business name (env MOIM_BUSINESS_NAME).")
    var businessName: String?

    @Option(name: .customLong("business-representative"), help: "대표자: its representative (env MOIM_BUSINESS_REPRESENTATIVE).")
    var businessRepresentative: String?

    @Option(name: .customLong("business-registration"), help: "사업자등록번호 (env MOIM_BUSINESS_REGISTRATION).")
    var businessRegistration: String?

    @Option(name: .customLong("business-mail-order"), help: "통신판매업 신고번호 (env MOIM_BUSINESS_MAIL_ORDER).")
    var businessMailOrder: String?

    @Option(name: .customLong("business-address"), help: "The business's address (env MOIM_BUSINESS_ADDRESS).")
    var businessAddress: String?

    @Option(name: .customLong("business-contact"), help: "A phone number or address to reach it (env MOIM_BUSINESS_CONTACT).")
    var businessContact: String?

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

    @Option(help: "Memory the caches of rows and rendered cards keep, in megabytes: at most twice this is held, whatever the size of the site (env MOIM_CACHE_MEGABYTES).")
    var cacheMegabytes: Int = Environment.value("MOIM_CACHE_MEGABYTES").flatMap(Int.init) ?? CacheBudget.standard.megabytes

    @Flag(inversion: .prefixedNo, help: "Admins and moderators open staff pages only after a one-time or recovery code in the session (env MOIM_REQUIRE_STAFF_TWO_FACTOR=0 to turn off).")
    var requireStaffTwoFactor = Environment.value("MOIM_REQUIRE_STAFF_TWO_FACTOR") != "0"

    @Flag(help: "Do not print an access-log line per request (env MOIM_QUIET=1).")
    var quiet = Environment.value("MOIM_QUIET") == "1"

    @Flag(inversion: .prefixedNo, help: "Run the server in a child process that a supervising parent restarts if it dies (env MOIM_SUPERVISE=0 to turn off).")
    var supervise = Environment.value("MOIM_SUPERVISE") != "0"

    // Optional flags read their environment twin here (ArgumentParser wants no default on an optional).
    var baseURL: String? { baseURLFlag ?? Environment.value("MOIM_BASE_URL") }
    var smtpURL: String? { smtpURLFlag ?? Environment.value("MOIM_SMTP_URL") }
    var mailFrom: String? { mailFromFlag ?? Environment.value("MOIM_MAIL_FROM") }
    var smtpCAFile: String? { smtpCAFileFlag ?? Environment.value("MOIM_SMTP_CA_FILE") }
    var metricsToken: String? { metricsTokenFlag ?? Environment.value("MOIM_METRICS_TOKEN") }
    var tileURL: String? { tileURLFlag ?? Environment.value("MOIM_TILE_URL") }
    func flag(_ value: String?, _ name: String) -> String? { value ?? Environment.value(name) }
    var tileAttribution: String? { tileAttributionFlag ?? Environment.value("MOIM_TILE_ATTRIBUTION") }

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
}
