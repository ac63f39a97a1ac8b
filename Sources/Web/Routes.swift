import HTTP
import Storage

/// Every route of the site, in one table.
enum Routes {
    static func router(for app: App) -> HTTPRouter {
        var router = HTTPRouter()

        // MARK: - Health
        // Answered on the event loop: a load balancer asks often, and nothing here can block.
        router.immediate("/healthz") { _ in .text("ok") }
        router.get("/metrics") { [unowned app] request in try app.metricsPage(request) }

        // MARK: - On the home screen
        router.get("/sw.js") { [unowned app] request in app.serviceWorker(request) }
        router.get("/manifest.webmanifest", app.page(app.manifest))

        // MARK: - Feeds
        router.get("/", app.page(app.home))
        router.get(Paths.explore, app.page(app.explore))
        router.get("/tags/:tag/feed.atom", app.page(app.tagAtom))
        router.get("/tags/:tag", app.page(app.tagShow))
        router.get(Paths.bookmarks, app.page(app.bookmarks))
        router.get(Paths.notifications, app.page(app.notifications))
        router.get(Paths.search, app.page(app.search))
        router.get(Paths.searchSuggestions, app.page(app.searchSuggest))
        router.get(Paths.events, app.page(app.liveEvents))

        // MARK: - Posts
        router.get(Paths.newPost, app.page(app.postNew))
        router.upload("/posts", app.page(app.postCreate))
        router.get("/posts/:id", app.page(app.postShow))
        router.get("/posts/:id/edit", app.page(app.postEdit))
        router.post("/posts/:id/edit", app.page(app.postUpdate))
        router.post("/posts/:id/delete", app.page(app.postDelete))
        router.post("/posts/:id/like", app.page(app.postLike))
        router.post("/posts/:id/unlike", app.page(app.postUnlike))
        router.post("/posts/:id/bookmark", app.page(app.postBookmark))
        router.post("/posts/:id/unbookmark", app.page(app.postUnbookmark))
        router.get("/media/:name") { [unowned app] request in try app.mediaShow(request) }

        router.get(Paths.near, app.page(app.nearPick))
        router.get("/tiles/:z/:x/:y") { [unowned app] request in try app.tileShow(request) }

        // MARK: - Sign-in providers
        router.get("/auth/:provider", app.page(app.providerStart))
        router.get("/auth/:provider/callback", app.page(app.providerCallback))
        // Apple posts its answer from its own site: the single-use `state` guards this POST.
        router.post("/auth/:provider/callback", app.page(app.providerCallback, checksCSRF: false))
        router.get(Paths.providerSignup, app.page(app.providerSignupShow))
        router.post(Paths.providerSignup, app.page(app.providerSignupCreate))
        router.post("/settings/providers/:provider/unlink", app.page(app.providerUnlink))

        // MARK: - Crews
        router.get(Paths.crews, app.page(app.crewList))
        router.get(Paths.newCrew, app.page(app.crewNew))
        router.upload(Paths.crews, app.page(app.crewCreate))
        router.get("/crews/:slug", app.page(app.crewShow))
        router.get("/crews/:slug/edit", app.page(app.crewEdit))
        router.upload("/crews/:slug/edit", app.page(app.crewUpdate))
        router.get("/crews/:slug/members", app.page(app.crewMembersShow))
        router.get("/crews/:slug/posts", app.page(app.crewPostsShow))
        router.get("/crews/:slug/meetups", app.page(app.crewMeetupsShow))
        router.get("/crews/:slug/retros", app.page(app.retroList))
        router.post("/crews/:slug/retros", app.page(app.retroCreate))
        router.get("/crews/:slug/retros/:id", app.page(app.retroShow))
        router.post("/crews/:slug/retros/:id/feedback", app.page(app.feedbackCreate))
        router.post("/crews/:slug/retros/:id/feedback/:fid", app.page(app.feedbackUpdate))
        router.post("/crews/:slug/retros/:id/close", app.page(app.retroClose))
        router.get("/crews/:slug/ledger", app.page(app.crewLedgerShow))
        router.post("/crews/:slug/ledger", app.page(app.crewLedgerRecord))
        router.get("/crews/:slug/ledger.csv", app.page(app.crewLedgerCSV))
        router.get("/crews/:slug/ledger/check", app.page(app.crewLedgerCheck))
        router.post("/crews/:slug/dues", app.page(app.duesPeriodCreate))
        router.post("/crews/:slug/dues/:id/close", app.page(app.duesPeriodClose))
        router.post("/crews/:slug/join", app.page(app.crewJoin))
        router.post("/crews/:slug/leave", app.page(app.crewLeave))
        router.post("/crews/:slug/invite", app.page(app.crewInviteRegenerate))
        router.post("/crews/:slug/comments", app.page(app.crewCommentCreate))
        router.post("/crews/:slug/comments/:id/delete", app.page(app.crewCommentDelete))
        for action in [CrewMemberAction.accept, .reject, .remove, .promote, .demote, .transfer] {
            router.post("/crews/:slug/members/:username/\(action.rawValue)", app.page(app.crewMemberAction(action)))
        }

        router.post("/crews/:slug/rooms", app.page(app.crewRoomCreate))
        router.post("/crews/:slug/notices", app.page(app.crewNoticeCreate))
        router.get("/crews/:slug/notices/:id", app.page(app.crewNoticeReaders))
        router.post("/crews/:slug/notices/:id/unpin", app.page(app.crewNoticeUnpin))
        router.post("/crews/:slug/notifications", app.page(app.crewNotifications))
        router.get("/crews/:slug/reports", app.page(app.crewReports))
        router.post("/crews/:slug/reports/:id", app.page(app.crewReportResolve))

        // MARK: - Talk
        router.get(Paths.talk, app.page(app.talkInbox))
        router.get(Paths.talkNew, app.page(app.talkNewGroup))
        router.post(Paths.talkNew, app.page(app.talkCreateGroup))
        router.get("/talk/:id", app.page(app.talkRoom))
        router.upload("/talk/:id", app.page(app.talkSend))
        router.get("/talk/:id/place", app.page(app.talkPlace))
        router.post("/talk/:id/place", app.page(app.talkPlace))
        router.get("/talk/messages/:id/place", app.page(app.talkPlaceMap))
        router.post("/talk/:id/accept", app.page(app.talkAccept))
        router.post("/talk/:id/leave", app.page(app.talkLeave))
        router.post("/talk/:id/mute", app.page(app.talkMute))
        router.post("/talk/:id/archive", app.page(app.talkArchive))
        router.get("/talk/messages/:id/edit", app.page(app.talkEdit))
        router.post("/talk/messages/:id/edit", app.page(app.talkUpdate))
        router.post("/talk/messages/:id/delete", app.page(app.talkDelete))
        router.post("/u/:username/talk", app.page(app.talkStartDirect))
        router.post("/settings/talk", app.page(app.talkSettingsUpdate))
        router.get(Paths.twoFactorSettings, app.page(app.twoFactorSettings))
        router.post(Paths.twoFactorSettings, app.page(app.twoFactorConfirm))
        router.post(Paths.twoFactorSettings + "/setup", app.page(app.twoFactorSetup))
        router.post(Paths.twoFactorSettings + "/off", app.page(app.twoFactorOff))
        router.get(Paths.twoFactorCheck, app.page(app.twoFactorCheck))
        router.get(Paths.passkeys, app.page(app.passkeysShow))
        router.post(Paths.passkeys, app.page(app.passkeyRegister))
        router.post(Paths.passkeys + "/options", app.page(app.passkeyRegistrationOptions))
        router.post(Paths.passkeys + "/:id/delete", app.page(app.passkeyRemove))
        router.post("/login/passkey/options", app.page(app.passkeySignInOptions))
        router.post("/login/passkey", app.page(app.passkeySignIn))
        router.get(Paths.signedInBrowsers, app.page(app.signedInBrowsers))
        router.post(Paths.signedInBrowsers + "/:id/end", app.page(app.signedInBrowserEnd))
        router.post(Paths.signedInBrowsers + "/end-others", app.page(app.signedInBrowsersEndOthers))
        router.post("/settings/calendar/renew", app.page(app.calendarRenew))
        router.post("/settings/marketing", app.page(app.marketingUpdate))
        router.get(Paths.dataExport, app.page(app.dataExportShow))
        router.post(Paths.dataExport, app.page(app.dataExportCreate))
        router.get(Paths.dataExport + "/download", app.page(app.dataExportDownload))
        router.get(Paths.deleteAccount, app.page(app.accountDeleteShow))
        router.post(Paths.deleteAccount, app.page(app.accountDelete))
        router.get(Paths.agreements, app.page(app.agreementsShow))
        router.post(Paths.agreements, app.page(app.agreementsCreate))
        for kind in SiteDocument.Kind.allCases {
            router.get(Paths.document(kind), app.page(app.documentPage(kind)))
        }
        router.post(Paths.twoFactorCheck, app.page(app.twoFactorVerify))

        // MARK: - Payments
        router.get("/crews/:slug/pay", app.page(app.paymentNew))
        router.post("/crews/:slug/pay", app.page(app.paymentCreate))
        router.post("/crews/:slug/payments/:id/refund", app.page(app.paymentRefund))
        router.get("/payments/:id", app.page(app.paymentShow))
        router.get("/payments/:id/pay", app.page(app.paymentWindow))
        router.get("/payments/:id/return", app.page(app.paymentReturn))
        // Providers post from their own servers: the signature is the authority, not a session.
        router.post("/payments/webhooks/:provider") { [unowned app] request in try app.paymentWebhook(request) }
        router.get(Paths.settingsPayments, app.page(app.settingsPayments))

        // MARK: - Meetups
        router.get(Paths.meetups, app.page(app.meetupList))
        router.get(Paths.newMeetup, app.page(app.meetupNew))
        router.post(Paths.meetups, app.page(app.meetupCreate))
        router.get("/meetups/mine", app.page(app.myMeetupsShow))
        router.get("/crews/:slug/calendar.ics", app.page(app.crewCalendarFeed))
        router.get("/meetups/:id.ics", app.page(app.meetupCalendar))
        router.get("/meetups/:id", app.page(app.meetupShow))
        router.get("/meetups/:id/edit", app.page(app.meetupEdit))
        router.post("/meetups/:id/edit", app.page(app.meetupUpdate))
        router.post("/meetups/:id/apply", app.page(app.meetupApply))
        router.post("/meetups/:id/cancel", app.page(app.meetupCancel))
        router.post("/meetups/:id/confirm", app.page(app.meetupConfirm))
        router.post("/meetups/:id/checkin", app.page(app.meetupCheckIn))
        router.get("/meetups/:id/retro", app.page(app.meetupRetroShow))
        router.post("/meetups/:id/retro", app.page(app.meetupRetroCreate))
        router.post("/meetups/:id/retro/feedback", app.page(app.meetupFeedbackCreate))
        router.post("/meetups/:id/retro/feedback/:fid", app.page(app.meetupFeedbackUpdate))
        router.post("/meetups/:id/retro/close", app.page(app.meetupRetroClose))
        router.post("/meetups/:id/close", app.page(app.meetupClose))
        router.get("/meetups/:id/call-off", app.page(app.meetupCallOffShow))
        router.post("/meetups/:id/call-off", app.page(app.meetupCallOff))
        router.post("/meetups/:id/delete", app.page(app.meetupDelete))
        router.post("/meetups/:id/comments", app.page(app.meetupTalk))
        router.post("/meetups/:id/attendance", app.page(app.meetupAttendance))
        router.post("/meetups/:id/bookmark", app.page(app.meetupBookmark(true)))
        router.post("/meetups/:id/unbookmark", app.page(app.meetupBookmark(false)))
        router.post("/meetups/:id/applications/:user/accept", app.page(app.meetupDecide(true)))
        router.post("/meetups/:id/applications/:user/reject", app.page(app.meetupDecide(false)))
        router.get("/calendar/:token.ics", app.page(app.calendarFeed))

        // MARK: - Records
        router.get("/records", app.page(app.recordCalendar))
        router.get("/records/new", app.page(app.recordNew))
        router.upload("/records", app.page(app.recordCreate))
        router.get("/records/:id", app.page(app.recordShow))
        router.get("/records/:id/edit", app.page(app.recordEdit))
        router.post("/records/:id/edit", app.page(app.recordUpdate))
        router.post("/records/:id/delete", app.page(app.recordDelete))
        router.get("/u/:username/records", app.page(app.profileRecords))
        router.get("/u/:username/feedback", app.page(app.feedbackArchive))

        // MARK: - Comments
        router.post("/posts/:id/comments", app.page(app.commentCreate))
        router.get("/comments/:id/edit", app.page(app.commentEdit))
        router.post("/comments/:id/edit", app.page(app.commentUpdate))
        router.post("/comments/:id/delete", app.page(app.commentDelete))

        // MARK: - Accounts
        router.get(Paths.signup, app.page(app.signupShow))
        router.post(Paths.signup, app.page(app.signupCreate))
        router.get(Paths.login, app.page(app.loginShow))
        router.post(Paths.login, app.page(app.loginCreate))
        router.get(Paths.logout, app.page(app.logoutShow))
        router.post(Paths.logout, app.page(app.logout))
        router.post(Paths.language, app.page(app.languageUpdate))
        router.get(Paths.forgotPassword, app.page(app.passwordForgotShow))
        router.post(Paths.forgotPassword, app.page(app.passwordForgotCreate))
        router.get("/password/reset/:token", app.page(app.passwordResetShow))
        router.post("/password/reset/:token", app.page(app.passwordResetUpdate))
        router.get("/email/verify/:token", app.page(app.emailVerify))
        router.get("/unsubscribe/:token", app.page(app.unsubscribeShow))
        // The token in the address is the authority: a mail provider's one-click POST has no
        // session and no CSRF token.
        router.post("/unsubscribe/:token", app.page(app.unsubscribeCreate, checksCSRF: false))

        // MARK: - Profiles and settings
        router.get("/u/:username", app.page(app.profileShow))
        router.get("/u/:username/followers", app.page(app.profileFollows(.followers)))
        router.get("/u/:username/following", app.page(app.profileFollows(.following)))
        router.get("/u/:username/feed.atom", app.page(app.userAtom))
        router.post("/u/:username/follow", app.page(app.profileFollow(true)))
        router.post("/u/:username/unfollow", app.page(app.profileFollow(false)))
        router.post("/u/:username/block", app.page(app.profileBlock(true)))
        router.post("/u/:username/unblock", app.page(app.profileBlock(false)))
        router.get(Paths.settings, app.page(app.settingsShow))
        router.post(Paths.settings, app.page(app.settingsProfileUpdate))
        router.post(Paths.settingsPassword, app.page(app.settingsPasswordUpdate))
        router.post("/settings/running", app.page(app.settingsRunningUpdate))
        router.post("/settings/email", app.page(app.settingsEmailUpdate))
        router.post("/settings/email/verify", app.page(app.emailVerificationResend))
        router.post("/settings/mail", app.page(app.settingsMailUpdate))
        router.post("/settings/workplace", app.page(app.workplaceCodeCreate))
        router.post("/settings/workplace/confirm", app.page(app.workplaceConfirm))
        router.post("/settings/workplace/remove", app.page(app.workplaceRemove))
        router.get(Paths.pushSettings, app.page(app.pushSettingsShow))
        router.post(Paths.pushSettings, app.page(app.pushKindsUpdate))
        router.post(Paths.pushSettings + "/devices", app.page(app.pushDeviceCreate))
        router.post(Paths.pushSettings + "/devices/:id/remove", app.page(app.pushDeviceRemove))

        // MARK: - Moderation
        router.get("/reports/new", app.page(app.reportNew))
        router.post("/reports", app.page(app.reportCreate))
        router.post("/warnings/ack", app.page(app.warningsAcknowledge))
        router.get("/moderation", app.page(app.publicModerationLog))
        // Every /admin route goes through the staff gate; so does the other method on each
        // path, so that a visitor gets 404, not a 405 that would reveal the area.
        let admin: [(HTTPMethod, String, @Sendable (RequestContext, User) throws -> HTTPResponse)] = [
            (.get, "/admin", app.adminDashboard),
            (.get, "/admin/reports", app.adminReports),
            (.post, "/admin/moderate", app.adminModerate),
            (.get, "/admin/users", app.adminUsers),
            (.get, "/admin/users/:username", app.adminUser),
            (.post, "/admin/users/:username/sanction", app.adminSanction),
            (.post, "/admin/users/:username/role", app.adminRole),
            (.post, "/admin/users/:username/messages", app.adminRemoveMessages),
            (.get, "/admin/log", app.adminLog),
            (.get, "/admin/payments", app.adminPayments),
            (.get, "/admin/documents", app.adminDocuments),
            (.get, "/admin/documents/:kind", app.adminDocuments),
            (.post, "/admin/documents/:kind/versions", app.adminDocumentPublish),
        ]
        for (method, path, handler) in admin {
            router.add(method, path, app.staffPage(handler))
            router.add(method == .get ? .post : .get, path, app.staffPage { _, _ in throw HTTPError(.methodNotAllowed) })
        }

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
