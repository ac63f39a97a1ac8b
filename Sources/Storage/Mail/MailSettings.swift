import Foundation

/// What a member wants by mail, and unsubscribing from a message's link.
extension MailStore {
    public func mailSettings(userID: Int64) throws -> MailSettings {
        try database.read { db in
            guard let settings = try db.fetchOne("SELECT \(MailSettings.selection.bare) FROM mailSettings WHERE userID = ?", [userID], { try MailSettings(row: $0, startingAt: 0) })
            else { throw StorageError.notFound }
            return settings
        }
    }

    public func updateMailSettings(userID: Int64, digest: MailSettings.Digest, meetupNotices: Bool, meetupReminders: Bool) throws {
        try database.write { db in
            try db.execute("UPDATE mailSettings SET digest = ?, meetupNotices = ?, meetupReminders = ? WHERE userID = ?",
                           [digest.rawValue, meetupNotices, meetupReminders, userID])
        }
    }

    /// The member an unsubscribe link names, with their settings.
    public func mailSettings(unsubscribeToken token: String) throws -> (User, MailSettings)? {
        try database.read { db in
            guard token.utf8.count == 48 else { return nil }
            return try db.fetchOne("SELECT \(User.selection.qualified), \(MailSettings.selection.qualified) FROM mailSettings JOIN users ON users.id = mailSettings.userID WHERE unsubscribeToken = ?",
                                   [token], AppDatabase.memberWithSettings)
        }
    }

    /// Turns a list off for the member the token names; false when it names nobody.
    public func unsubscribe(token: String, from list: MailSettings.List) throws -> Bool {
        try database.write { db in
            let change = switch list {
            case .digest: "digest = 'off'"
            case .notices: "meetupNotices = FALSE"
            case .reminders: "meetupReminders = FALSE"
            }
            return try db.execute("UPDATE mailSettings SET \(change) WHERE unsubscribeToken = ?", [token]) > 0
        }
    }
}

extension AppDatabase {
    /// A row of `\(User.selection.qualified), \(MailSettings.selection.qualified)`.
    static func memberWithSettings(_ row: SQLRow) throws -> (User, MailSettings) {
        (try User(row: row, startingAt: 0), try MailSettings(row: row, startingAt: User.selection.count))
    }
}
