import Foundation

extension RetroStore {
    public func createRetro(crewID: Int64, by staffID: Int64, name: String, startsAt: Date, now: Date = Date()) throws -> Retro {
        try database.write { db in
            try database.requireStaff(db, crewID: crewID, userID: staffID)
            var retro = Retro(id: nil, crewID: crewID, name: name, startsAt: startsAt, closedAt: nil, createdBy: staffID, createdAt: now)
            retro.id = try db.insert(retro)
            return retro
        }
    }

    /// The meetup's host opens its retrospective once the meetup has ended (one per meetup).
    public func createRetro(meetupID: Int64, by hostID: Int64, name: String, startsAt: Date, now: Date = Date()) throws -> Retro {
        try database.write { db in
            guard let meetup = try db.record(Meetup.self, id: meetupID), meetup.hostID == hostID else { throw StorageError.forbidden }
            guard now >= meetup.endsAt else { throw StorageError.forbidden }
            guard try db.record(Retro.self, "SELECT \(Retro.selection.bare) FROM retros WHERE meetupID = ?", [meetupID]) == nil else {
                throw StorageError.duplicate
            }
            var retro = Retro(id: nil, crewID: nil, meetupID: meetupID, name: name, startsAt: startsAt, closedAt: nil, createdBy: hostID, createdAt: now)
            retro.id = try db.insert(retro)
            return retro
        }
    }

    public func retro(meetupID: Int64) throws -> Retro? {
        try database.read { db in try db.record(Retro.self, "SELECT \(Retro.selection.bare) FROM retros WHERE meetupID = ?", [meetupID]) }
    }

    /// Who takes part in a retro: a crew's members; a meetup's host and those who attended.
    public func retroMembers(_ retro: Retro) throws -> [User] {
        try database.read { db in
            if let crewID = retro.crewID {
                return try db.records(User.self, """
                    SELECT \(User.selection.qualified) FROM crewMembers JOIN users ON users.id = crewMembers.userID
                    WHERE crewMembers.crewID = ? AND crewMembers.role != 'pending' ORDER BY crewMembers.joinedAt
                    """, [crewID])
            }
            return try db.records(User.self, """
                SELECT \(User.selection.qualified) FROM users WHERE id = (SELECT hostID FROM meetups WHERE id = ?1)
                UNION ALL
                SELECT \(User.selection.qualified) FROM meetupApplications a JOIN users ON users.id = a.userID
                WHERE a.meetupID = ?1 AND a.status = 'accepted' AND a.attended = TRUE
                """, [retro.meetupID])
        }
    }

    /// True if `userID` takes part in the retro of meetup `meetupID`: its host, or someone
    /// who attended.
    public func takesPart(inRetroOfMeetup meetupID: Int64, userID: Int64) throws -> Bool {
        let retro = Retro(id: nil, crewID: nil, meetupID: meetupID, name: "", startsAt: Date(), closedAt: nil, createdBy: nil, createdAt: Date())
        return try database.read { db in try takesPart(db, retro, userID: userID) }
    }

    public func retros(crewID: Int64) throws -> [Retro] {
        try database.read { db in try db.records(Retro.self, "SELECT \(Retro.selection.bare) FROM retros WHERE crewID = ? ORDER BY startsAt DESC", [crewID]) }
    }

    public func retro(id: Int64) throws -> Retro? {
        try database.read { db in try db.record(Retro.self, id: id) }
    }

    /// Staff (a meetup's host) close a retro once it has started.
    public func closeRetro(id: Int64, by staffID: Int64, now: Date = Date()) throws {
        try database.write { db in
            guard let retro = try db.record(Retro.self, id: id) else { throw StorageError.notFound }
            if let crewID = retro.crewID {
                try database.requireStaff(db, crewID: crewID, userID: staffID)
            } else if try db.record(Meetup.self, id: retro.meetupID)?.hostID != staffID {
                throw StorageError.forbidden
            }
            guard retro.hasStarted(at: now) else { throw StorageError.forbidden }
            try db.execute("UPDATE retros SET closedAt = coalesce(closedAt, ?) WHERE id = ?", [now, id])
        }
    }

    /// Leaves feedback before the retro starts; author and recipient must both take part.
    public func addFeedback(_ feedback: Feedback, now: Date = Date()) throws -> Feedback {
        try database.write { db in
            guard let retro = try db.record(Retro.self, id: feedback.retroID) else { throw StorageError.notFound }
            guard !retro.hasStarted(at: now) else { throw StorageError.forbidden }
            for user in [feedback.authorID, feedback.recipientID] {
                guard try takesPart(db, retro, userID: user) else { throw StorageError.forbidden }
            }
            var feedback = feedback
            feedback.id = try db.insert(feedback)
            return feedback
        }
    }

    /// Changes or deletes (`delete: true`) one's own feedback, until the retro starts.
    public func changeFeedback(id: Int64, authorID: Int64, keyword: String, description: String, toStart: String, kind: Feedback.Kind,
                               delete: Bool, now: Date = Date()) throws {
        try database.write { db in
            guard var feedback = try db.record(Feedback.self, id: id), feedback.authorID == authorID,
                  let retro = try db.record(Retro.self, id: feedback.retroID)
            else { throw StorageError.notFound }
            guard !retro.hasStarted(at: now) else { throw StorageError.forbidden }
            if delete {
                try db.delete(feedback)
            } else {
                feedback.keyword = keyword
                feedback.description = description
                feedback.toStart = toStart
                feedback.kind = kind
                feedback.updatedAt = now
                try db.update(feedback)
            }
        }
    }

    /// What `authorID` wrote in a retro (only ever visible to its author).
    public func feedbackWritten(retroID: Int64, authorID: Int64) throws -> [(feedback: Feedback, recipient: User)] {
        try database.read { db in
            let feedback = try db.records(Feedback.self, "SELECT \(Feedback.selection.bare) FROM retroFeedback WHERE retroID = ? AND authorID = ? ORDER BY id", [retroID, authorID])
            let recipients = try db.records(User.self, ids: Set(feedback.map(\.recipientID))).reduce(into: [Int64: User]()) { $0[$1.id ?? 0] = $1 }
            return feedback.compactMap { item in recipients[item.recipientID].map { (item, $0) } }
        }
    }

    /// What `recipientID` received in a retro: nothing before it starts.
    public func feedbackReceived(retroID: Int64, recipientID: Int64, now: Date = Date()) throws -> [(feedback: Feedback, author: User)] {
        try database.read { db in
            guard let retro = try db.record(Retro.self, id: retroID), retro.hasStarted(at: now) else { return [] }
            let feedback = try db.records(Feedback.self, "SELECT \(Feedback.selection.bare) FROM retroFeedback WHERE retroID = ? AND recipientID = ? ORDER BY kind, keyword", [retroID, recipientID])
            let authors = try db.records(User.self, ids: Set(feedback.map(\.authorID))).reduce(into: [Int64: User]()) { $0[$1.id ?? 0] = $1 }
            return feedback.compactMap { item in authors[item.authorID].map { (item, $0) } }
        }
    }

    /// Every keyword `userID` received in retros that have started, across crews and meetups,
    /// with counts; `crew` names the crew or the meetup.
    public func feedbackArchive(userID: Int64, now: Date = Date()) throws -> (items: [(feedback: Feedback, retro: Retro, crew: String)], counts: [(keyword: String, count: Int)]) {
        try database.read { db in
            let feedback = try db.fetchAll("""
                SELECT \(Feedback.selection.qualified), coalesce(crews.name, meetups.title) AS crewName FROM retroFeedback
                JOIN retros ON retros.id = retroFeedback.retroID
                LEFT JOIN crews ON crews.id = retros.crewID LEFT JOIN meetups ON meetups.id = retros.meetupID
                WHERE retroFeedback.recipientID = ? AND retros.startsAt <= ? ORDER BY retros.startsAt DESC, retroFeedback.id
                """, [userID, now]) { (try Feedback(row: $0, startingAt: 0), try $0.decode("crewName", as: String.self)) }
            let retros = try db.records(Retro.self, ids: Set(feedback.map(\.0.retroID))).reduce(into: [Int64: Retro]()) { $0[$1.id ?? 0] = $1 }
            let items = feedback.compactMap { item, crew in retros[item.retroID].map { (item, $0, crew) } }
            let counts = try db.fetchAll("""
                SELECT keyword, count(*) AS count FROM retroFeedback JOIN retros ON retros.id = retroFeedback.retroID
                WHERE recipientID = ? AND retros.startsAt <= ? GROUP BY keyword ORDER BY count DESC, keyword
                """, [userID, now]) { (try $0.decode("keyword", as: String.self), try $0.decode("count", as: Int.self)) }
            return (items, counts)
        }
    }
}

extension RetroStore {
    private func takesPart(_ db: SQLConnection, _ retro: Retro, userID: Int64) throws -> Bool {
        if let crewID = retro.crewID { return try database.crewRole(db, crewID: crewID, userID: userID)?.isMember == true }
        return try db.value("""
            SELECT EXISTS (SELECT 1 FROM meetups WHERE id = ?1 AND hostID = ?2)
                OR EXISTS (SELECT 1 FROM meetupApplications WHERE meetupID = ?1 AND userID = ?2 AND status = 'accepted' AND attended = TRUE)
            """, [retro.meetupID, userID], as: Bool.self) ?? false
    }
}
