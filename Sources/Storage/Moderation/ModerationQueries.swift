import Foundation

extension ModerationStore {
    // MARK: - Reports

    /// Files a report. One open report per reporter and target; when `autoHideThreshold`
    /// distinct people have reported the same content, it is hidden until staff review it.
    public func report(reporterID: Int64, target: ModerationTarget, targetID: Int64, reason: ReportReason, note: String,
                       autoHideThreshold: Int, now: Date = Date()) throws {
        try database.write { db in
            guard try database.label(db, target, targetID) != nil else { throw StorageError.notFound }
            // A message only by those who could read it: anyone else learns nothing of it.
            if target == .message, try !database.talk.canRead(db, messageID: targetID, userID: reporterID) { throw StorageError.notFound }
            try db.refusing(as: .duplicate) {
                try db.execute("""
                    INSERT INTO reports (reporterID, targetType, targetID, reason, note, createdAt) VALUES (?, ?, ?, ?, ?, ?)
                    """, [reporterID, target.rawValue, targetID, reason.rawValue, note, now])
            }
            let reporters = try db.value("""
                SELECT count(DISTINCT reporterID) FROM reports WHERE targetType = ? AND targetID = ? AND resolvedAt IS NULL
                """, [target.rawValue, targetID], as: Int.self) ?? 0
            if reporters >= autoHideThreshold, let table = target.table,
               try db.value("SELECT count(*) FROM \(table) WHERE id = ? AND hiddenAt IS NULL", [targetID], as: Int.self) == 1 {
                try db.execute("UPDATE \(table) SET hiddenAt = ? WHERE id = ?", [now, targetID])
                if target == .meetup { db.changed(.meetup(meetupID: targetID)) }
                try log(db, moderatorID: nil, action: "autoHide", target: target, targetID: targetID,
                        reason: "\(reporters) reports", now: now)
            }
        }
    }

    /// Open reports grouped by target, most reported first.
    public func openReports() throws -> [ReportGroup] {
        try reportGroups(where: "resolvedAt IS NULL", [])
    }

    /// Open reports of messages in a crew's own and topic rooms, for its staff.
    public func crewMessageReports(crewID: Int64) throws -> [ReportGroup] {
        try reportGroups(where: """
            resolvedAt IS NULL AND targetType = 'message' AND targetID IN
                (SELECT messages.id FROM messages JOIN rooms ON rooms.id = messages.roomID WHERE rooms.crewID = ? AND rooms.kind IN ('crew', 'topic'))
            """, [crewID])
    }

    private func reportGroups(where condition: String, _ arguments: [(any SQLBindable)?]) throws -> [ReportGroup] {
        try database.read { db in
            let lists = db.joinedTexts("reason", separator: ",", orderedBy: "id") + " AS reasons, " + db.joinedTexts("note", separator: "\u{1E}", orderedBy: "id") + " AS notes"
            let rows = try db.fetchAll("""
                SELECT targetType, targetID, count(*) AS count, \(lists), max(createdAt) AS latest
                FROM reports WHERE \(condition) GROUP BY targetType, targetID ORDER BY count DESC, latest DESC, targetType, targetID
                """, arguments) { row -> ReportGroup? in
                guard let type = ModerationTarget(rawValue: try row.decode("targetType")) else { return nil }
                let reasons = (try row.decode("reasons", as: String?.self) ?? "").split(separator: ",").compactMap { ReportReason(rawValue: String($0)) }
                let notes = (try row.decode("notes", as: String?.self) ?? "").split(separator: "\u{1E}").map(String.init).filter { !$0.isEmpty }
                return ReportGroup(targetType: type, targetID: try row.decode("targetID"), count: try row.decode("count"), reasons: reasons,
                                   notes: notes, latest: try row.decode("latest"))
            }
            return rows.compactMap { $0 }
        }
    }

    public func openReportCount() throws -> Int {
        try database.read { db in try db.value("SELECT count(*) FROM reports WHERE resolvedAt IS NULL", as: Int.self) ?? 0 }
    }

    /// Returns the files of a deleted message's photos, for the caller to remove.
    @discardableResult
    public func moderate(_ action: AppDatabase.ContentAction, target: ModerationTarget, targetID: Int64, by moderatorID: Int64,
                         reason: String, now: Date = Date()) throws -> [String] {
        try database.write { db in
            var files: [String] = []
            guard let label = try database.label(db, target, targetID) else { throw StorageError.notFound }
            if target == .meetup { db.changed(.meetup(meetupID: targetID)) }
            switch action {
            case .dismiss:
                break
            case .hide, .restore:
                guard let table = target.table else { throw StorageError.forbidden }
                try db.execute("UPDATE \(table) SET hiddenAt = ? WHERE id = ?", [action == .hide ? now : nil, targetID])
            case .delete where target == .message:
                files = try database.talk.tombstone(db, messageID: targetID, now: now)
            case .delete:
                guard let table = target.table else { throw StorageError.forbidden }
                try db.execute("DELETE FROM \(table) WHERE id = ?", [targetID])
            case .lock, .unlock:
                guard target == .post else { throw StorageError.forbidden }
                try db.execute("UPDATE posts SET commentsLocked = ? WHERE id = ?", [action == .lock, targetID])
            }
            try db.execute("UPDATE reports SET resolvedAt = ?, resolution = ? WHERE targetType = ? AND targetID = ? AND resolvedAt IS NULL", [now, action.rawValue, target.rawValue, targetID])
            try log(db, moderatorID: moderatorID, action: action.rawValue, target: target, targetID: targetID, label: label, reason: reason, now: now)
            return files
        }
    }

    /// A crew's staff on a reported message in the crew's rooms: dismiss the reports, or
    /// delete it to its tombstone (returning its photos' files). Logged as any moderator's action.
    @discardableResult
    public func moderateCrewMessage(_ action: AppDatabase.ContentAction, crewID: Int64, messageID: Int64, by staffID: Int64,
                                    now: Date = Date()) throws -> [String] {
        guard action == .dismiss || action == .delete else { throw StorageError.forbidden }
        return try database.write { db in
            guard try db.value("""
                SELECT count(*) FROM messages JOIN rooms ON rooms.id = messages.roomID WHERE messages.id = ? AND rooms.crewID = ? AND rooms.kind IN ('crew', 'topic')
                """, [messageID, crewID], as: Int.self) == 1, let label = try database.label(db, .message, messageID) else { throw StorageError.notFound }
            try database.requireStaff(db, crewID: crewID, userID: staffID)
            let files = action == .delete ? try database.talk.tombstone(db, messageID: messageID, now: now) : []
            try db.execute("UPDATE reports SET resolvedAt = ?, resolution = ? WHERE targetType = 'message' AND targetID = ? AND resolvedAt IS NULL",
                           [now, action.rawValue, messageID])
            try log(db, moderatorID: staffID, action: action.rawValue, target: .message, targetID: messageID, label: label, reason: "", now: now)
            return files
        }
    }

    /// Deletes every message a member wrote, in every room, to tombstones, and resolves their
    /// reports: an admin's answer to a spammer. Returns their photos' files, for the caller
    /// to remove.
    @discardableResult
    public func removeMessages(userID: Int64, by adminID: Int64, reason: String, now: Date = Date()) throws -> [String] {
        try database.write { db in
            guard let target = try db.record(User.self, id: userID), let admin = try db.record(User.self, id: adminID) else { throw StorageError.notFound }
            guard admin.role == .admin, target.id != admin.id else { throw StorageError.forbidden }
            let ids = try db.values("SELECT id FROM messages WHERE authorID = ? AND deletedAt IS NULL ORDER BY id", [userID], as: Int64.self)
            var files: [String] = []
            for id in ids { files += try database.talk.tombstone(db, messageID: id, now: now) }
            try db.execute("""
                UPDATE reports SET resolvedAt = ?, resolution = 'delete'
                WHERE targetType = 'message' AND resolvedAt IS NULL AND targetID IN (SELECT id FROM messages WHERE authorID = ?)
                """, [now, userID])
            try log(db, moderatorID: adminID, action: "removeMessages", target: .user, targetID: userID,
                    label: "@" + target.username, reason: reason, now: now)
            return files
        }
    }

    /// Warns, silences or suspends a member (until `until`, nil for ever), or lifts a
    /// sanction. A suspension ends their sessions at once. Moderators cannot act on admins.
    public func sanction(_ action: AppDatabase.MemberAction, userID: Int64, by moderatorID: Int64, until: Date?, reason: String, now: Date = Date()) throws {
        try database.write { db in
            guard let target = try db.record(User.self, id: userID), let moderator = try db.record(User.self, id: moderatorID), moderator.isStaff else {
                throw StorageError.notFound
            }
            if target.role == .admin, moderator.role != .admin { throw StorageError.forbidden }
            guard target.id != moderator.id else { throw StorageError.forbidden }
            let end = until ?? Date.distantFuture
            db.changed(.member(userID: userID))
            switch action {
            case .warn:
                try db.execute("INSERT INTO warnings (userID, moderatorID, reason, createdAt) VALUES (?, ?, ?, ?)", [userID, moderatorID, reason, now])
            case .silence:
                try db.execute("UPDATE users SET silencedUntil = ?, sanctionReason = ? WHERE id = ?", [end, reason, userID])
            case .suspend:
                try db.execute("UPDATE users SET suspendedUntil = ?, sanctionReason = ? WHERE id = ?", [end, reason, userID])
                try db.execute("DELETE FROM sessions WHERE userID = ?", [userID])
            case .unsuspend:
                try db.execute("UPDATE users SET suspendedUntil = NULL, silencedUntil = NULL, sanctionReason = '' WHERE id = ?", [userID])
            }
            try log(db, moderatorID: moderatorID, action: action.rawValue, target: .user, targetID: userID,
                    label: "@" + target.username, reason: reason, now: now)
        }
    }

    /// The member has read their warnings: the banner goes.
    public func acknowledgeWarnings(userID: Int64, now: Date = Date()) throws {
        try database.write { db in
            try db.execute("UPDATE warnings SET readAt = ? WHERE userID = ? AND readAt IS NULL", [now, userID])
        }
    }

    // MARK: - The log

    /// The newest log entries with their moderators' usernames (nil for automatic actions).
    public func moderationLog(limit: Int = 100) throws -> [(entry: LogEntry, moderator: String?)] {
        try database.read { db in
            try db.fetchAll("""
                SELECT \(LogEntry.selection.qualified), users.username AS moderatorName FROM moderationLog
                LEFT JOIN users ON users.id = moderationLog.moderatorID ORDER BY moderationLog.id DESC LIMIT ?
                """, [limit]) { row in
                (try LogEntry(row: row, startingAt: 0), try row.decode("moderatorName"))
            }
        }
    }

    /// Who wrote or owns a target, for the review queue's "author's history" link.
    public func targetAuthor(_ target: ModerationTarget, id: Int64) throws -> User? {
        let sql = switch target {
        case .post: "SELECT \(User.selection.qualified) FROM posts JOIN users ON users.id = posts.authorID WHERE posts.id = ?"
        case .comment: "SELECT \(User.selection.qualified) FROM comments JOIN users ON users.id = comments.authorID WHERE comments.id = ?"
        case .crew: "SELECT \(User.selection.qualified) FROM crewMembers JOIN users ON users.id = crewMembers.userID WHERE crewMembers.crewID = ? AND role = 'owner'"
        case .meetup: "SELECT \(User.selection.qualified) FROM meetups JOIN users ON users.id = meetups.hostID WHERE meetups.id = ?"
        case .user: "SELECT \(User.selection.bare) FROM users WHERE id = ?"
        case .message: "SELECT \(User.selection.qualified) FROM messages JOIN users ON users.id = messages.authorID WHERE messages.id = ?"
        }
        return try database.read { db in try db.record(User.self, sql, [id]) }
    }

    /// Whether staff hid the target (members and users cannot be hidden).
    public func targetIsHidden(_ target: ModerationTarget, id: Int64) throws -> Bool {
        guard let table = target.table else { return false }
        return try database.readRows { connection in
            try connection.value("SELECT hiddenAt IS NOT NULL FROM \(table) WHERE id = ?", [id], as: Bool.self) ?? false
        }
    }

    /// The label of a target, for the review queue.
    public func targetLabel(_ target: ModerationTarget, id: Int64) throws -> String? {
        try database.read { db in try database.label(db, target, id) }
    }

    // MARK: - Blocking

    public func setBlock(blockerID: Int64, blockedID: Int64, on: Bool, now: Date = Date()) throws {
        guard blockerID != blockedID else { throw StorageError.forbidden }
        try database.write { db in
            if on {
                try db.execute("INSERT INTO blocks (blockerID, blockedID, createdAt) VALUES (?, ?, ?) ON CONFLICT DO NOTHING", [blockerID, blockedID, now])
                // A block ends follows both ways.
                try db.execute("DELETE FROM follows WHERE (followerID = ?1 AND followeeID = ?2) OR (followerID = ?2 AND followeeID = ?1)", [blockerID, blockedID])
            } else {
                try db.execute("DELETE FROM blocks WHERE blockerID = ? AND blockedID = ?", [blockerID, blockedID])
            }
        }
    }

    /// True if either has blocked the other.
    public func isBlocked(_ a: Int64, _ b: Int64) throws -> Bool {
        try database.read { db in try database.isBlocked(db, a, b) }
    }

    // MARK: - Dashboard and limits

    /// Rows created per day over the last `days` days: `table` is `users` or `posts`.
    public func dailyCounts(_ table: String, days: Int, now: Date = Date()) throws -> [(day: String, count: Int)] {
        guard table == "users" || table == "posts" else { return [] }
        return try database.read { db in
            let since = now.addingTimeInterval(-Double(days) * 86_400)
            let day = db.dayOf("createdAt")
            let counts = try db.fetchAll("SELECT \(day) AS day, count(*) AS count FROM \(table) WHERE createdAt >= ? GROUP BY day", [since]) {
                (try $0.decode("day", as: String.self), try $0.decode("count", as: Int.self))
            }
            .reduce(into: [String: Int]()) { $0[$1.0] = $1.1 }
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyy-MM-dd"
            return (0..<days).reversed().map { offset in
                let day = formatter.string(from: now.addingTimeInterval(-Double(offset) * 86_400))
                return (day, counts[day] ?? 0)
            }
        }
    }

    /// How many of `kind` the user created since `since`.
    public func createdCount(_ kind: AppDatabase.Creation, userID: Int64, since: Date) throws -> Int {
        let sql = switch kind {
        case .posts: "SELECT count(*) FROM posts WHERE createdAt >= ?1 AND authorID = ?2"
        case .comments: "SELECT count(*) FROM comments WHERE createdAt >= ?1 AND authorID = ?2"
        case .meetups: "SELECT count(*) FROM meetups WHERE createdAt >= ?1 AND hostID = ?2"
        case .crews: "SELECT count(*) FROM crews WHERE createdAt >= ?1 AND id IN (SELECT crewID FROM crewMembers WHERE role = 'owner' AND userID = ?2)"
        case .messages: "SELECT count(*) FROM messages WHERE authorID = ?2 AND createdAt >= ?1"
        }
        return try database.read { db in try db.value(sql, [since, userID], as: Int.self) ?? 0 }
    }

    public func newUsers(limit: Int = 10) throws -> [User] {
        try database.read { db in try db.records(User.self, "SELECT \(User.selection.bare) FROM users ORDER BY id DESC LIMIT ?", [limit]) }
    }

    /// Members whose username, display name or email contains `query`.
    public func findUsers(_ query: String, limit: Int = 50) throws -> [User] {
        let pattern = "%" + query.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_") + "%"
        return try database.read { db in
            try db.records(User.self, """
                SELECT \(User.selection.bare) FROM users WHERE username LIKE ?1 ESCAPE '\\' OR displayName LIKE ?1 ESCAPE '\\' OR email LIKE ?1 ESCAPE '\\'
                ORDER BY id DESC LIMIT ?2
                """, [pattern, limit])
        }
    }

    /// Reports a member made and received, and their live sessions, for the user page.
    public func moderationSummary(userID: Int64) throws -> (made: Int, received: Int, sessions: Int, posts: Int, comments: Int) {
        try database.read { db in
            let count = { (sql: String) in try db.value(sql, [userID], as: Int.self) ?? 0 }
            return (
                try count("SELECT count(*) FROM reports WHERE reporterID = ?"),
                try count("""
                    SELECT count(*) FROM reports WHERE (targetType = 'user' AND targetID = ?1)
                    OR (targetType = 'post' AND targetID IN (SELECT id FROM posts WHERE authorID = ?1))
                    OR (targetType = 'comment' AND targetID IN (SELECT id FROM comments WHERE authorID = ?1))
                    OR (targetType = 'message' AND targetID IN (SELECT id FROM messages WHERE authorID = ?1))
                    """),
                try count("SELECT count(*) FROM sessions WHERE userID = ?"),
                try count("SELECT count(*) FROM posts WHERE authorID = ?"),
                try count("SELECT count(*) FROM comments WHERE authorID = ?")
            )
        }
    }
}

extension AppDatabase {
    /// Actions staff take on reported content; each resolves the target's open reports and
    /// writes one log row, in one transaction.
    public enum ContentAction: String, Sendable, CaseIterable {
        case dismiss, hide, restore, delete, lock, unlock
    }

    /// What staff do to a member.
    public enum MemberAction: String, Sendable, CaseIterable {
        case warn, silence, suspend, unsuspend
    }

    /// A short description of a target, or nil if it does not exist.
    func label(_ db: SQLConnection, _ target: ModerationTarget, _ id: Int64) throws -> String? {
        let sql = switch target {
        case .post: "SELECT substr(body, 1, 80) FROM posts WHERE id = ?"
        case .comment: "SELECT substr(body, 1, 80) FROM comments WHERE id = ?"
        case .crew: "SELECT name FROM crews WHERE id = ?"
        case .meetup: "SELECT title FROM meetups WHERE id = ?"
        case .user: "SELECT '@' || username FROM users WHERE id = ?"
        case .message: "SELECT substr(body, 1, 80) FROM messages WHERE id = ?"
        }
        return try db.value(sql, [id], as: String.self)
    }

    /// A condition: no block either way between the member bound to `viewer` (a placeholder,
    /// `?5`) and the member in `column`. True for a viewer bound as NULL (signed out).
    static func unblocked(viewer: String, _ column: String) -> String {
        "NOT EXISTS (SELECT 1 FROM blocks WHERE (blockerID = \(viewer) AND blockedID = \(column)) OR (blockerID = \(column) AND blockedID = \(viewer)))"
    }

    func isBlocked(_ db: SQLConnection, _ a: Int64, _ b: Int64) throws -> Bool {
        try db.value("""
            SELECT EXISTS (SELECT 1 FROM blocks WHERE (blockerID = ?1 AND blockedID = ?2) OR (blockerID = ?2 AND blockedID = ?1))
            """, [a, b], as: Bool.self) ?? false
    }

    /// What a member creates, for the caps on new accounts.
    public enum Creation: String, Sendable {
        case posts, comments, meetups, crews, messages
    }
}

extension ModerationStore {
    private func log(_ db: SQLConnection, moderatorID: Int64?, action: String, target: ModerationTarget, targetID: Int64,
                         label: String? = nil, reason: String, now: Date) throws {
        var entry = LogEntry(id: nil, moderatorID: moderatorID, action: action, targetType: target.rawValue, targetID: targetID,
                             targetLabel: try label ?? database.label(db, target, targetID) ?? "", reason: reason, createdAt: now)
        entry.id = try db.insert(entry)
    }
}
