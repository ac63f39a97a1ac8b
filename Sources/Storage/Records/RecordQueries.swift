import Foundation

extension RecordStore {
    /// Saves a new record; one with a `clientKey` the runner has used already is not saved
    /// again, and the record made the first time is returned.
    public func createRecord(_ record: RunRecord) throws -> RunRecord {
        do {
            return try insertRecord(record)
        } catch StorageError.duplicate {
            // Sent twice at once: the other request made it.
            guard let key = record.clientKey, let first = try recordMade(userID: record.userID, clientKey: key) else { throw StorageError.duplicate }
            return first
        }
    }

    /// Changes what a runner may change of their own run: its notes and who sees it.
    public func updateRecord(id: Int64, userID: Int64, note: String, noteHTML: String, visibility: RunRecord.Visibility) throws {
        try database.write { db in
            guard try db.execute("UPDATE records SET note = ?, noteHTML = ?, visibility = ? WHERE id = ? AND userID = ?",
                                 [note, noteHTML, visibility.rawValue, id, userID]) == 1 else { throw StorageError.notFound }
        }
    }

    public func deleteRecord(id: Int64, userID: Int64) throws {
        try database.write { db in
            guard try db.execute("DELETE FROM records WHERE id = ? AND userID = ?", [id, userID]) == 1 else { throw StorageError.notFound }
        }
    }

    /// The record if `viewerID` may see it: its runner always; crew visibility for people who
    /// share a crew with the runner; public for everyone.
    public func record(id: Int64, viewerID: Int64?) throws -> RunRecord? {
        try database.read { db in
            guard let record = try db.record(RunRecord.self, id: id), try canSee(db, record.userID, record.visibility, viewerID) else { return nil }
            return record
        }
    }

    /// A runner's records between two instants that `viewerID` may see, oldest first.
    public func records(userID: Int64, from: Date, to: Date, viewerID: Int64?) throws -> [RunRecord] {
        try database.read { db in
            let levels = try visibleLevels(db, ownerID: userID, viewerID: viewerID)
            return try db.records(RunRecord.self, """
                SELECT \(RunRecord.selection.bare) FROM records WHERE userID = ? AND startedAt >= ? AND startedAt < ? AND visibility IN (\(SQLConnection.placeholders(levels.count)))
                ORDER BY startedAt
                """, [userID, from, to] + levels)
        }
    }

    /// Meetups the user went to (or hosted) that started in the last 30 days, to link a run to.
    public func recentMeetupsAttended(userID: Int64, now: Date = Date()) throws -> [Meetup] {
        try database.read { db in
            try db.records(Meetup.self, """
                SELECT \(Meetup.selection.bare) FROM meetups WHERE startsAt BETWEEN ? AND ? AND (hostID = ?3 OR id IN
                    (SELECT meetupID FROM meetupApplications WHERE userID = ?3 AND status = 'accepted'))
                ORDER BY startsAt DESC
                """, [now.addingTimeInterval(-30 * 86_400), now.addingTimeInterval(86_400), userID])
        }
    }

    /// This month's distance per opted-in member of a crew, longest first.
    public func leaderboard(crewID: Int64, from: Date, to: Date) throws -> [(user: User, meters: Int, runs: Int)] {
        try database.read { db in
            try db.fetchAll("""
                SELECT \(User.selection.qualified), sum(records.distanceMeters) AS meters, count(records.id) AS runs
                FROM crewMembers JOIN users ON users.id = crewMembers.userID
                JOIN records ON records.userID = users.id AND records.startedAt >= ? AND records.startedAt < ? AND records.visibility != 'private'
                WHERE crewMembers.crewID = ? AND crewMembers.role != 'pending' AND users.onLeaderboard = TRUE
                GROUP BY users.id ORDER BY meters DESC, users.id LIMIT 50
                """, [from, to, crewID]) { row in
                (try User(row: row, startingAt: 0), try row.decode("meters"), try row.decode("runs"))
            }
        }
    }
}

extension RecordStore {
    private func recordMade(userID: Int64, clientKey: String) throws -> RunRecord? {
        try database.read { db in try db.record(RunRecord.self, "SELECT \(RunRecord.selection.bare) FROM records WHERE userID = ? AND clientKey = ?", [userID, clientKey]) }
    }

    private func insertRecord(_ record: RunRecord) throws -> RunRecord {
        try database.write { db in
            if let key = record.clientKey,
               let first = try db.record(RunRecord.self, "SELECT \(RunRecord.selection.bare) FROM records WHERE userID = ? AND clientKey = ?", [record.userID, key]) {
                return first
            }
            var record = record
            if let meetupID = record.meetupID {
                let attended = try db.value("""
                    SELECT EXISTS (SELECT 1 FROM meetupApplications WHERE meetupID = ? AND userID = ? AND status = 'accepted')
                        OR EXISTS (SELECT 1 FROM meetups WHERE id = ? AND hostID = ?)
                    """, [meetupID, record.userID, meetupID, record.userID], as: Bool.self) ?? false
                guard attended else { throw StorageError.forbidden }
            }
            record.id = try db.refusing(as: .duplicate) { try db.insert(record) }
            return record
        }
    }

    private func canSee(_ db: SQLConnection, _ ownerID: Int64, _ visibility: RunRecord.Visibility, _ viewerID: Int64?) throws -> Bool {
        try visibleLevels(db, ownerID: ownerID, viewerID: viewerID).contains(visibility.rawValue)
    }

    private func visibleLevels(_ db: SQLConnection, ownerID: Int64, viewerID: Int64?) throws -> [String] {
        guard let viewerID else { return ["public"] }
        if viewerID == ownerID { return ["public", "crew", "private"] }
        let shareCrew = try db.value("""
            SELECT EXISTS (SELECT 1 FROM crewMembers a JOIN crewMembers b ON a.crewID = b.crewID
                           WHERE a.userID = ? AND b.userID = ? AND a.role != 'pending' AND b.role != 'pending')
            """, [ownerID, viewerID], as: Bool.self) ?? false
        return shareCrew ? ["public", "crew"] : ["public"]
    }
}
