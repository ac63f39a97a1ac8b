import Foundation
import HTTP
import Storage

extension App {
    /// Wraps every `/admin` handler: moderators and admins only. Anyone else gets a plain
    /// 404, so the area does not reveal that it exists, and nothing runs.
    func staffPage(_ handler: @escaping @Sendable (RequestContext, User) throws -> HTTPResponse) -> HTTPRouter.Handler {
        page { context in
            guard let user = context.user, user.isStaff else { throw HTTPError(.notFound) }
            return try handler(context, user)
        }
    }

    func isNewAccount(_ user: User) -> Bool {
        !user.isStaff && user.createdAt > Date().addingTimeInterval(-Double(configuration.newAccountLimits.days) * 86_400)
    }

    /// Refuses silenced members, and members past the daily cap for new accounts, before they
    /// create `kind` (nil: only the silence applies).
    func requireCanPost(_ user: User, _ kind: AppDatabase.Creation?, _ context: RequestContext) throws {
        let language = context.language
        if user.isSilenced() {
            throw HTTPError(.forbidden, message: localizer.text("moderation.silenced", language, ["reason": user.sanctionReason]))
        }
        let limits = configuration.newAccountLimits
        guard let kind, isNewAccount(user), let cap = limits.perDay[kind] else { return }
        let since = Date().addingTimeInterval(-86_400)
        if try database.createdCount(kind, userID: user.storedID, since: since) >= cap {
            throw HTTPError(.tooManyRequests, message: localizer.text("moderation.new_account_cap", language, ["days": String(limits.days)]),
                            headers: ["Retry-After": "3600"])
        }
    }
}

extension App {
    /// "Your account is suspended until … because …", or "for good".
    func suspensionMessage(_ user: User, _ language: Language) -> String {
        let until = user.suspendedUntil.map { $0 > Date().addingTimeInterval(50 * 365 * 86_400) ? nil : localizer.dateTime($0, language) } ?? nil
        return localizer.text(until == nil ? "moderation.suspended_forever" : "moderation.suspended_until", language,
                              ["until": until ?? "", "reason": user.sanctionReason])
    }
}
