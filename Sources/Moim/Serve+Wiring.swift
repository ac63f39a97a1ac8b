import ArgumentParser
import Foundation
import HTTP
import Mail
import Network
import Storage
import Web

/// The server put together from the checked flags: the database, the app, the listener, the
/// stop signals.
extension Serve {
    func serve(_ zone: TimeZone, listener: Int32?, witness: (any RequestWitness)?) throws {
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
        web.cacheBudget = CacheBudget(megabytes: cacheMegabytes)
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
        web.siteName = siteName
        web.requireStaffTwoFactor = requireStaffTwoFactor
        web.business = try businessDetails()
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

    /// The business details from `--business-file`, each flag given overriding its field.
    func businessDetails() throws -> BusinessDetails? {
        var details = BusinessDetails()
        if let businessFile = businessFile ?? Environment.value("MOIM_BUSINESS_FILE") {
            do {
                details = try JSONDecoder().decode(BusinessDetails.self, from: Data(contentsOf: URL(fileURLWithPath: businessFile)))
            } catch {
                throw ValidationError("--business-file \(businessFile): \(error.localizedDescription)")
            }
        }
        // Each flag, else its environment twin.
        let flags: [(WritableKeyPath<BusinessDetails, String>, String?, String)] = [
            (\.name, businessName, "NAME"), (\.representative, businessRepresentative, "REPRESENTATIVE"),
            (\.registration, businessRegistration, "REGISTRATION"), (\.mailOrder, businessMailOrder, "MAIL_ORDER"),
            (\.address, businessAddress, "ADDRESS"), (\.contact, businessContact, "CONTACT"),
        ]
        for (field, flag, name) in flags {
            if let value = flag ?? Environment.value("MOIM_BUSINESS_" + name) { details[keyPath: field] = value }
        }
        return details.given
    }
}
