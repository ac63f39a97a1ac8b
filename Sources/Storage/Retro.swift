import Foundation
import GRDB

/// A retrospective (KeyGo) of a crew, or of one meetup: the people in it leave keyword
/// feedback for each other before it starts; each sees what they received from the start on.
/// In a crew's, its members take part; in a meetup's, its host and the people who attended.
public struct Retro: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord, StoredRecord {
    public var id: Int64?
    public var crewID: Int64?
    public var meetupID: Int64? = nil
    public var name: String
    public var startsAt: Date
    public var closedAt: Date?
    public var createdBy: Int64?
    public var createdAt: Date

    public static let databaseTableName = "retros"

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    public func hasStarted(at now: Date) -> Bool { now >= startsAt }
}

/// One piece of feedback: Continue or Stop, a keyword, why, and optionally what to start.
public struct Feedback: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord, StoredRecord {
    public enum Kind: String, Codable, Sendable, CaseIterable { case `continue`, stop }

    public var id: Int64?
    public var retroID: Int64
    public var authorID: Int64
    public var recipientID: Int64
    public var kind: Kind
    public var keyword: String
    public var description: String
    public var toStart: String
    public var createdAt: Date
    public var updatedAt: Date

    public static let databaseTableName = "retroFeedback"

    public init(retroID: Int64, authorID: Int64, recipientID: Int64, kind: Kind, keyword: String, description: String, toStart: String, now: Date = Date()) {
        self.retroID = retroID
        self.authorID = authorID
        self.recipientID = recipientID
        self.kind = kind
        self.keyword = keyword
        self.description = description
        self.toStart = toStart
        self.createdAt = now
        self.updatedAt = now
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

extension AppDatabase {
    public func createRetro(crewID: Int64, by staffID: Int64, name: String, startsAt: Date, now: Date = Date()) throws -> Retro {
        try writer.write { db in
            try requireStaff(db, crewID: crewID, userID: staffID)
            var retro = Retro(id: nil, crewID: crewID, name: name, startsAt: startsAt, closedAt: nil, createdBy: staffID, createdAt: now)
            try retro.insert(db)
            return retro
        }
    }

    /// The meetup's host opens its retrospective once the meetup has ended (one per meetup).
    public func createRetro(meetupID: Int64, by hostID: Int64, name: String, startsAt: Date, now: Date = Date()) throws -> Retro {
        try writer.write { db in
            guard let meetup = try Meetup.fetchOne(db, key: meetupID), meetup.hostID == hostID else { throw StorageError.forbidden }
            guard now >= meetup.endsAt else { throw StorageError.forbidden }
            guard try Retro.fetchOne(db, sql: "SELECT * FROM retros WHERE meetupID = ?", arguments: [meetupID]) == nil else {
                throw StorageError.duplicate
            }
            var retro = Retro(id: nil, crewID: nil, meetupID: meetupID, name: name, startsAt: startsAt, closedAt: nil, createdBy: hostID, createdAt: now)
            try retro.insert(db)
            return retro
        }
    }

    public func retro(meetupID: Int64) throws -> Retro? {
        try reader.read { db in try Retro.fetchOne(db, sql: "SELECT * FROM retros WHERE meetupID = ?", arguments: [meetupID]) }
    }

    /// Who takes part in a retro: a crew's members; a meetup's host and those who attended.
    public func retroMembers(_ retro: Retro) throws -> [User] {
        try reader.read { db in
            if let crewID = retro.crewID {
                return try User.fetchAll(db, sql: """
                    SELECT users.* FROM crewMembers JOIN users ON users.id = crewMembers.userID
                    WHERE crewMembers.crewID = ? AND crewMembers.role != 'pending' ORDER BY crewMembers.joinedAt
                    """, arguments: [crewID])
            }
            return try User.fetchAll(db, sql: """
                SELECT users.* FROM users WHERE id = (SELECT hostID FROM meetups WHERE id = ?1)
                UNION ALL
                SELECT users.* FROM meetupApplications a JOIN users ON users.id = a.userID
                WHERE a.meetupID = ?1 AND a.status = 'accepted' AND a.attended = 1
                """, arguments: [retro.meetupID])
        }
    }

    private func takesPart(_ db: Database, _ retro: Retro, userID: Int64) throws -> Bool {
        if let crewID = retro.crewID { return try crewRole(db, crewID: crewID, userID: userID)?.isMember == true }
        return try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM meetups WHERE id = ?1 AND hostID = ?2)
                OR EXISTS (SELECT 1 FROM meetupApplications WHERE meetupID = ?1 AND userID = ?2 AND status = 'accepted' AND attended = 1)
            """, arguments: [retro.meetupID, userID]) ?? false
    }

    /// True if `userID` takes part in the retro of meetup `meetupID`: its host, or someone
    /// who attended.
    public func takesPart(inRetroOfMeetup meetupID: Int64, userID: Int64) throws -> Bool {
        let retro = Retro(id: nil, crewID: nil, meetupID: meetupID, name: "", startsAt: Date(), closedAt: nil, createdBy: nil, createdAt: Date())
        return try reader.read { db in try takesPart(db, retro, userID: userID) }
    }

    public func retros(crewID: Int64) throws -> [Retro] {
        try reader.read { db in try Retro.fetchAll(db.cachedStatement(sql: "SELECT * FROM retros WHERE crewID = ? ORDER BY startsAt DESC"), arguments: [crewID]) }
    }

    public func retro(id: Int64) throws -> Retro? {
        try reader.read { db in try Retro.fetchOne(db, key: id) }
    }

    /// Staff (a meetup's host) close a retro once it has started.
    public func closeRetro(id: Int64, by staffID: Int64, now: Date = Date()) throws {
        try writer.write { db in
            guard let retro = try Retro.fetchOne(db, key: id) else { throw StorageError.notFound }
            if let crewID = retro.crewID {
                try requireStaff(db, crewID: crewID, userID: staffID)
            } else if try Meetup.fetchOne(db, key: retro.meetupID)?.hostID != staffID {
                throw StorageError.forbidden
            }
            guard retro.hasStarted(at: now) else { throw StorageError.forbidden }
            try db.execute(sql: "UPDATE retros SET closedAt = coalesce(closedAt, ?) WHERE id = ?", arguments: [now, id])
        }
    }

    /// Leaves feedback before the retro starts; author and recipient must both take part.
    public func addFeedback(_ feedback: Feedback, now: Date = Date()) throws -> Feedback {
        try writer.write { db in
            guard let retro = try Retro.fetchOne(db, key: feedback.retroID) else { throw StorageError.notFound }
            guard !retro.hasStarted(at: now) else { throw StorageError.forbidden }
            for user in [feedback.authorID, feedback.recipientID] {
                guard try takesPart(db, retro, userID: user) else { throw StorageError.forbidden }
            }
            var feedback = feedback
            try feedback.insert(db)
            return feedback
        }
    }

    /// Changes or deletes (`delete: true`) one's own feedback, until the retro starts.
    public func changeFeedback(id: Int64, authorID: Int64, keyword: String, description: String, toStart: String, kind: Feedback.Kind,
                               delete: Bool, now: Date = Date()) throws {
        try writer.write { db in
            guard var feedback = try Feedback.fetchOne(db, key: id), feedback.authorID == authorID,
                  let retro = try Retro.fetchOne(db, key: feedback.retroID)
            else { throw StorageError.notFound }
            guard !retro.hasStarted(at: now) else { throw StorageError.forbidden }
            if delete {
                try feedback.delete(db)
            } else {
                feedback.keyword = keyword
                feedback.description = description
                feedback.toStart = toStart
                feedback.kind = kind
                feedback.updatedAt = now
                try feedback.update(db)
            }
        }
    }

    /// What `authorID` wrote in a retro (only ever visible to its author).
    public func feedbackWritten(retroID: Int64, authorID: Int64) throws -> [(feedback: Feedback, recipient: User)] {
        try reader.read { db in
            let feedback = try Feedback.fetchAll(db.cachedStatement(sql: "SELECT * FROM retroFeedback WHERE retroID = ? AND authorID = ? ORDER BY id"),
                                                 arguments: [retroID, authorID])
            let recipients = try User.fetchAll(db, keys: Array(Set(feedback.map(\.recipientID)))).reduce(into: [Int64: User]()) { $0[$1.id ?? 0] = $1 }
            return feedback.compactMap { item in recipients[item.recipientID].map { (item, $0) } }
        }
    }

    /// What `recipientID` received in a retro: nothing before it starts.
    public func feedbackReceived(retroID: Int64, recipientID: Int64, now: Date = Date()) throws -> [(feedback: Feedback, author: User)] {
        try reader.read { db in
            guard let retro = try Retro.fetchOne(db, key: retroID), retro.hasStarted(at: now) else { return [] }
            let feedback = try Feedback.fetchAll(db.cachedStatement(sql: "SELECT * FROM retroFeedback WHERE retroID = ? AND recipientID = ? ORDER BY kind, keyword"),
                                                 arguments: [retroID, recipientID])
            let authors = try User.fetchAll(db, keys: Array(Set(feedback.map(\.authorID)))).reduce(into: [Int64: User]()) { $0[$1.id ?? 0] = $1 }
            return feedback.compactMap { item in authors[item.authorID].map { (item, $0) } }
        }
    }

    /// Every keyword `userID` received in retros that have started, across crews and meetups,
    /// with counts; `crew` names the crew or the meetup.
    public func feedbackArchive(userID: Int64, now: Date = Date()) throws -> (items: [(feedback: Feedback, retro: Retro, crew: String)], counts: [(keyword: String, count: Int)]) {
        try reader.read { db in
            let rows = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT retroFeedback.*, coalesce(crews.name, meetups.title) AS crewName FROM retroFeedback
                JOIN retros ON retros.id = retroFeedback.retroID
                LEFT JOIN crews ON crews.id = retros.crewID LEFT JOIN meetups ON meetups.id = retros.meetupID
                WHERE retroFeedback.recipientID = ? AND retros.startsAt <= ? ORDER BY retros.startsAt DESC, retroFeedback.id
                """), arguments: [userID, now])
            let feedback = try rows.map { (try Feedback(row: $0), $0["crewName"] as String) }
            let retros = try Retro.fetchAll(db, keys: Array(Set(feedback.map(\.0.retroID)))).reduce(into: [Int64: Retro]()) { $0[$1.id ?? 0] = $1 }
            let items = feedback.compactMap { item, crew in retros[item.retroID].map { (item, $0, crew) } }
            let counts = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT keyword, count(*) AS count FROM retroFeedback JOIN retros ON retros.id = retroFeedback.retroID
                WHERE recipientID = ? AND retros.startsAt <= ? GROUP BY keyword ORDER BY count DESC, keyword
                """), arguments: [userID, now]).map { ($0["keyword"] as String, $0["count"] as Int) }
            return (items, counts)
        }
    }
}
