import Foundation
import GRDB

extension AppDatabase {
    // MARK: - Reports

    /// Files a report. One open report per reporter and target; when `autoHideThreshold`
    /// distinct people have reported the same content, it is hidden until staff review it.
    public func report(reporterID: Int64, target: ModerationTarget, targetID: Int64, reason: ReportReason, note: String,
                       autoHideThreshold: Int, now: Date = Date()) throws {
        try writer.write { db in
            guard try label(db, target, targetID) != nil else { throw StorageError.notFound }
            do {
                try db.execute(sql: """
                    INSERT INTO reports (reporterID, targetType, targetID, reason, note, createdAt) VALUES (?, ?, ?, ?, ?, ?)
                    """, arguments: [reporterID, target.rawValue, targetID, reason.rawValue, note, now])
            } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                throw StorageError.duplicate
            }
            let reporters = try Int.fetchOne(db.cachedStatement(sql: """
                SELECT count(DISTINCT reporterID) FROM reports WHERE targetType = ? AND targetID = ? AND resolvedAt IS NULL
                """), arguments: [target.rawValue, targetID]) ?? 0
            if reporters >= autoHideThreshold, let table = target.table,
               try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM \(table) WHERE id = ? AND hiddenAt IS NULL"), arguments: [targetID]) == 1 {
                try db.execute(sql: "UPDATE \(table) SET hiddenAt = ? WHERE id = ?", arguments: [now, targetID])
                try log(db, moderatorID: nil, action: "autoHide", target: target, targetID: targetID,
                        reason: "\(reporters) reports", now: now)
            }
        }
    }

    /// Open reports grouped by target, most reported first.
    public func openReports() throws -> [ReportGroup] {
        try reader.read { db in
            let rows = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT targetType, targetID, count(*) AS count, group_concat(reason) AS reasons,
                       group_concat(note, char(30)) AS notes, max(createdAt) AS latest
                FROM reports WHERE resolvedAt IS NULL GROUP BY targetType, targetID ORDER BY count DESC, latest DESC
                """))
            return rows.compactMap { row in
                guard let type = ModerationTarget(rawValue: row["targetType"]) else { return nil }
                let reasons = (row["reasons"] as String? ?? "").split(separator: ",").compactMap { ReportReason(rawValue: String($0)) }
                let notes = (row["notes"] as String? ?? "").split(separator: "\u{1E}").map(String.init).filter { !$0.isEmpty }
                return ReportGroup(targetType: type, targetID: row["targetID"], count: row["count"], reasons: reasons, notes: notes, latest: row["latest"])
            }
        }
    }

    public func openReportCount() throws -> Int {
        try reader.read { db in try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM reports WHERE resolvedAt IS NULL")) ?? 0 }
    }

    // MARK: - Acting on content

    /// Actions staff take on reported content; each resolves the target's open reports and
    /// writes one log row, in one transaction.
    public enum ContentAction: String, Sendable, CaseIterable {
        case dismiss, hide, restore, delete, lock, unlock
    }

    public func moderate(_ action: ContentAction, target: ModerationTarget, targetID: Int64, by moderatorID: Int64,
                         reason: String, now: Date = Date()) throws {
        try writer.write { db in
            guard let label = try label(db, target, targetID) else { throw StorageError.notFound }
            switch action {
            case .dismiss:
                break
            case .hide, .restore:
                guard let table = target.table else { throw StorageError.forbidden }
                try db.execute(sql: "UPDATE \(table) SET hiddenAt = ? WHERE id = ?", arguments: [action == .hide ? now : nil, targetID])
            case .delete:
                guard let table = target.table else { throw StorageError.forbidden }
                try db.execute(sql: "DELETE FROM \(table) WHERE id = ?", arguments: [targetID])
            case .lock, .unlock:
                guard target == .post else { throw StorageError.forbidden }
                try db.execute(sql: "UPDATE posts SET commentsLocked = ? WHERE id = ?", arguments: [action == .lock, targetID])
            }
            try db.execute(sql: "UPDATE reports SET resolvedAt = ?, resolution = ? WHERE targetType = ? AND targetID = ? AND resolvedAt IS NULL",
                           arguments: [now, action.rawValue, target.rawValue, targetID])
            try log(db, moderatorID: moderatorID, action: action.rawValue, target: target, targetID: targetID, label: label, reason: reason, now: now)
        }
    }

    // MARK: - Acting on members

    public enum MemberAction: String, Sendable, CaseIterable {
        case warn, silence, suspend, unsuspend
    }

    /// Warns, silences or suspends a member (until `until`, nil for ever), or lifts a
    /// sanction. A suspension ends their sessions at once. Moderators cannot act on admins.
    public func sanction(_ action: MemberAction, userID: Int64, by moderatorID: Int64, until: Date?, reason: String, now: Date = Date()) throws {
        try writer.write { db in
            guard let target = try User.fetchOne(db, key: userID), let moderator = try User.fetchOne(db, key: moderatorID), moderator.isStaff else {
                throw StorageError.notFound
            }
            if target.role == .admin, moderator.role != .admin { throw StorageError.forbidden }
            guard target.id != moderator.id else { throw StorageError.forbidden }
            let end = until ?? Date.distantFuture
            switch action {
            case .warn:
                try db.execute(sql: "INSERT INTO warnings (userID, moderatorID, reason, createdAt) VALUES (?, ?, ?, ?)",
                               arguments: [userID, moderatorID, reason, now])
            case .silence:
                try db.execute(sql: "UPDATE users SET silencedUntil = ?, sanctionReason = ? WHERE id = ?", arguments: [end, reason, userID])
            case .suspend:
                try db.execute(sql: "UPDATE users SET suspendedUntil = ?, sanctionReason = ? WHERE id = ?", arguments: [end, reason, userID])
                try db.execute(sql: "DELETE FROM sessions WHERE userID = ?", arguments: [userID])
            case .unsuspend:
                try db.execute(sql: "UPDATE users SET suspendedUntil = NULL, silencedUntil = NULL, sanctionReason = '' WHERE id = ?", arguments: [userID])
            }
            try log(db, moderatorID: moderatorID, action: action.rawValue, target: .user, targetID: userID,
                    label: "@" + target.username, reason: reason, now: now)
        }
    }

    /// The member has read their warnings: the banner goes.
    public func acknowledgeWarnings(userID: Int64, now: Date = Date()) throws {
        try writer.write { db in
            try db.execute(sql: "UPDATE warnings SET readAt = ? WHERE userID = ? AND readAt IS NULL", arguments: [now, userID])
        }
    }

    // MARK: - The log

    /// The newest log entries with their moderators' usernames (nil for automatic actions).
    public func moderationLog(limit: Int = 100) throws -> [(entry: LogEntry, moderator: String?)] {
        try reader.read { db in
            try Row.fetchAll(db.cachedStatement(sql: """
                SELECT moderationLog.*, users.username AS moderatorName FROM moderationLog
                LEFT JOIN users ON users.id = moderationLog.moderatorID ORDER BY moderationLog.id DESC LIMIT ?
                """), arguments: [limit])
            .map { (try LogEntry(row: $0), $0["moderatorName"]) }
        }
    }

    private func log(_ db: Database, moderatorID: Int64?, action: String, target: ModerationTarget, targetID: Int64,
                     label: String? = nil, reason: String, now: Date) throws {
        var entry = LogEntry(id: nil, moderatorID: moderatorID, action: action, targetType: target.rawValue, targetID: targetID,
                             targetLabel: try label ?? self.label(db, target, targetID) ?? "", reason: reason, createdAt: now)
        try entry.insert(db)
    }

    /// A short description of a target, or nil if it does not exist.
    func label(_ db: Database, _ target: ModerationTarget, _ id: Int64) throws -> String? {
        let sql = switch target {
        case .post: "SELECT substr(body, 1, 80) FROM posts WHERE id = ?"
        case .comment: "SELECT substr(body, 1, 80) FROM comments WHERE id = ?"
        case .crew: "SELECT name FROM crews WHERE id = ?"
        case .meetup: "SELECT title FROM meetups WHERE id = ?"
        case .user: "SELECT '@' || username FROM users WHERE id = ?"
        }
        return try String.fetchOne(db.cachedStatement(sql: sql), arguments: [id])
    }

    /// Who wrote or owns a target, for the review queue's "author's history" link.
    public func targetAuthor(_ target: ModerationTarget, id: Int64) throws -> User? {
        let sql = switch target {
        case .post: "SELECT users.* FROM posts JOIN users ON users.id = posts.authorID WHERE posts.id = ?"
        case .comment: "SELECT users.* FROM comments JOIN users ON users.id = comments.authorID WHERE comments.id = ?"
        case .crew: "SELECT users.* FROM crewMembers JOIN users ON users.id = crewMembers.userID WHERE crewMembers.crewID = ? AND role = 'owner'"
        case .meetup: "SELECT users.* FROM meetups JOIN users ON users.id = meetups.hostID WHERE meetups.id = ?"
        case .user: "SELECT * FROM users WHERE id = ?"
        }
        return try reader.read { db in try User.fetchOne(db.cachedStatement(sql: sql), arguments: [id]) }
    }

    /// Whether staff hid the target (members and users cannot be hidden).
    public func targetIsHidden(_ target: ModerationTarget, id: Int64) throws -> Bool {
        guard let table = target.table else { return false }
        return try readRows { connection in
            try connection.fetchOne("SELECT hiddenAt IS NOT NULL FROM \(table) WHERE id = ?", [id]) { try $0.decode(atIndex: 0) as Bool } ?? false
        }
    }

    /// The label of a target, for the review queue.
    public func targetLabel(_ target: ModerationTarget, id: Int64) throws -> String? {
        try reader.read { db in try label(db, target, id) }
    }

    // MARK: - Blocking

    public func setBlock(blockerID: Int64, blockedID: Int64, on: Bool, now: Date = Date()) throws {
        guard blockerID != blockedID else { throw StorageError.forbidden }
        try writer.write { db in
            if on {
                try db.execute(sql: "INSERT OR IGNORE INTO blocks (blockerID, blockedID, createdAt) VALUES (?, ?, ?)", arguments: [blockerID, blockedID, now])
                // A block ends follows both ways.
                try db.execute(sql: "DELETE FROM follows WHERE (followerID = ?1 AND followeeID = ?2) OR (followerID = ?2 AND followeeID = ?1)",
                               arguments: [blockerID, blockedID])
            } else {
                try db.execute(sql: "DELETE FROM blocks WHERE blockerID = ? AND blockedID = ?", arguments: [blockerID, blockedID])
            }
        }
    }

    /// True if either has blocked the other.
    public func isBlocked(_ a: Int64, _ b: Int64) throws -> Bool {
        try reader.read { db in try isBlocked(db, a, b) }
    }

    func isBlocked(_ db: Database, _ a: Int64, _ b: Int64) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: """
            SELECT EXISTS (SELECT 1 FROM blocks WHERE (blockerID = ?1 AND blockedID = ?2) OR (blockerID = ?2 AND blockedID = ?1))
            """), arguments: [a, b]) ?? false
    }

    public func hasBlocked(blockerID: Int64, blockedID: Int64) throws -> Bool {
        try readRows { connection in
            try connection.fetchOne("SELECT EXISTS (SELECT 1 FROM blocks WHERE blockerID = ? AND blockedID = ?)", [blockerID, blockedID]) {
                try $0.decode(atIndex: 0) as Bool
            } ?? false
        }
    }

    // MARK: - Dashboard and limits

    /// Rows created per day over the last `days` days: `table` is `users` or `posts`.
    public func dailyCounts(_ table: String, days: Int, now: Date = Date()) throws -> [(day: String, count: Int)] {
        guard table == "users" || table == "posts" else { return [] }
        return try reader.read { db in
            let since = now.addingTimeInterval(-Double(days) * 86_400)
            let counts = try Row.fetchAll(db.cachedStatement(sql: "SELECT date(createdAt) AS day, count(*) AS count FROM \(table) WHERE createdAt >= ? GROUP BY day"),
                                          arguments: [since])
                .reduce(into: [String: Int]()) { $0[$1["day"]] = $1["count"] }
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

    /// What a member creates, for the caps on new accounts.
    public enum Creation: String, Sendable {
        case posts, comments, meetups, crews
    }

    /// How many of `kind` the user created since `since`.
    public func createdCount(_ kind: Creation, userID: Int64, since: Date) throws -> Int {
        let sql = switch kind {
        case .posts: "SELECT count(*) FROM posts WHERE createdAt >= ?1 AND authorID = ?2"
        case .comments: "SELECT count(*) FROM comments WHERE createdAt >= ?1 AND authorID = ?2"
        case .meetups: "SELECT count(*) FROM meetups WHERE createdAt >= ?1 AND hostID = ?2"
        case .crews: "SELECT count(*) FROM crews WHERE createdAt >= ?1 AND id IN (SELECT crewID FROM crewMembers WHERE role = 'owner' AND userID = ?2)"
        }
        return try reader.read { db in try Int.fetchOne(db.cachedStatement(sql: sql), arguments: [since, userID]) ?? 0 }
    }

    public func newUsers(limit: Int = 10) throws -> [User] {
        try reader.read { db in try User.fetchAll(db.cachedStatement(sql: "SELECT * FROM users ORDER BY id DESC LIMIT ?"), arguments: [limit]) }
    }

    /// Members whose username, display name or email contains `query`.
    public func findUsers(_ query: String, limit: Int = 50) throws -> [User] {
        let pattern = "%" + query.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_") + "%"
        return try reader.read { db in
            try User.fetchAll(db.cachedStatement(sql: """
                SELECT * FROM users WHERE username LIKE ?1 ESCAPE '\\' OR displayName LIKE ?1 ESCAPE '\\' OR email LIKE ?1 ESCAPE '\\'
                ORDER BY id DESC LIMIT ?2
                """), arguments: [pattern, limit])
        }
    }

    /// Reports a member made and received, and their live sessions, for the user page.
    public func moderationSummary(userID: Int64) throws -> (made: Int, received: Int, sessions: Int, posts: Int, comments: Int) {
        try reader.read { db in
            let count = { (sql: String) in try Int.fetchOne(db.cachedStatement(sql: sql), arguments: [userID]) ?? 0 }
            return (
                try count("SELECT count(*) FROM reports WHERE reporterID = ?"),
                try count("""
                    SELECT count(*) FROM reports WHERE (targetType = 'user' AND targetID = ?1)
                    OR (targetType = 'post' AND targetID IN (SELECT id FROM posts WHERE authorID = ?1))
                    OR (targetType = 'comment' AND targetID IN (SELECT id FROM comments WHERE authorID = ?1))
                    """),
                try count("SELECT count(*) FROM sessions WHERE userID = ?"),
                try count("SELECT count(*) FROM posts WHERE authorID = ?"),
                try count("SELECT count(*) FROM comments WHERE authorID = ?")
            )
        }
    }
}
