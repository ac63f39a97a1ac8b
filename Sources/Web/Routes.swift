import HTTP

/// Every route of the site, in one table.
enum Routes {
    static func router(for app: App) -> HTTPRouter {
        var router = HTTPRouter()

        // MARK: - Health
        router.get("/healthz") { _ in .text("ok") }

        // MARK: - Home
        router.get("/", app.page(app.home))

        // MARK: - Accounts
        router.get(Paths.signup, app.page(app.signupShow))
        router.post(Paths.signup, app.page(app.signupCreate))
        router.get(Paths.login, app.page(app.loginShow))
        router.post(Paths.login, app.page(app.loginCreate))
        router.post(Paths.logout, app.page(app.logout))
        router.post(Paths.language, app.page(app.languageUpdate))

        // MARK: - Profiles and settings
        router.get("/u/:username", app.page(app.profileShow))
        router.get(Paths.settings, app.page(app.settingsShow))
        router.post(Paths.settings, app.page(app.settingsProfileUpdate))
        router.post(Paths.settingsPassword, app.page(app.settingsPasswordUpdate))

        // MARK: - Static files and errors
        router.fallback = { [unowned app] request in
            guard let response = app.staticFiles.response(for: request) else { throw HTTPError(.notFound) }
            return response
        }
        router.errorHandler = { [unowned app] request, error in
            var response = app.errorResponse(error, request: request, context: nil)
            app.finish(&response, context: nil)
            return response
        }
        return router
    }
}
