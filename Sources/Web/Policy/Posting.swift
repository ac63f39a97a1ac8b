import Foundation
import HTTP
import Storage

/// Who may write: the one rule every feature that creates something asks (posts, comments,
/// crews, meetups, signups), and the words for a member who may not.
extension App {
    /// Joined within the configured days, and not staff: held to the daily caps.
    func isNewAccount(_ user: User) -> Bool {
        !user.isStaff && user.createdAt > Date().addingTimeInterval(-Double(configuration.newAccountLimits.days) * 86_400)
    }

    /// Refuses silenced members, and members past the daily cap for new accounts, before they
    /// create `kind` (nil: only the silence applies).
    func requireCanPost(_ user: User, _ kind: AppDatabase.Creation?, _ context: RequestContext) throws {
        let language = context.language
        if user.isSilenced() {
            throw HTTPError(.forbidden, message: localizer.text(.moderation.silenced, language, ["reason": user.sanctionReason]))
        }
        let limits = configuration.newAccountLimits
        guard let kind, isNewAccount(user), let cap = limits.perDay[kind] else { return }
        let since = Date().addingTimeInterval(-86_400)
        if try database.moderation.createdCount(kind, userID: user.storedID, since: since) >= cap {
            throw HTTPError(.tooManyRequests, message: localizer.count(.moderation.new_account_cap, limits.days, language),
                            headers: ["Retry-After": "3600"])
        }
    }

    /// "Your account is suspended until … because …", or "for good".
    func suspensionMessage(_ user: User, _ language: Language) -> String {
        let until = user.suspendedUntil.map { $0 > Date().addingTimeInterval(50 * 365 * 86_400) ? nil : localizer.dateTime($0, language) } ?? nil
        return localizer.text(until == nil ? .moderation.suspended_forever : .moderation.suspended_until, language,
                              ["until": until ?? "", "reason": user.sanctionReason])
    }
}
