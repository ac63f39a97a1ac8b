import Foundation

/// What applying did, or why it did nothing.
public enum ApplyResult: Sendable, Equatable {
    case accepted, pending, waitlisted
    case closed
    case notEligible([Ineligibility])
    case alreadyApplied(ApplicationStatus)
    /// The meetup has pace groups and none (or one of another meetup) was chosen.
    case chooseGroup
}

extension MeetupStore {
    // MARK: - Hosting

    /// Creates the meetup with its pace groups, if any (its capacity is then theirs summed).
    public func createMeetup(_ meetup: Meetup, groups: [PaceGroup] = []) throws -> Meetup {
        try database.write { db in
            var meetup = meetup
            if let crewID = meetup.crewID {
                guard try database.crewRole(db, crewID: crewID, userID: meetup.hostID)?.isMember == true else { throw StorageError.forbidden }
            }
            if !groups.isEmpty { meetup.capacity = groups.reduce(0) { $0 + $1.capacity } }
            meetup.id = try db.insert(meetup)
            try insertGroups(db, groups, meetupID: meetup.storedID)
            // A crew's meetup is news to its members.
            if let crewID = meetup.crewID {
                for member in try database.crewNewsReaders(db, crewID: crewID, except: meetup.hostID) {
                    try database.insertNotification(db, userID: member, kind: .crewMeetup, actorID: meetup.hostID, postID: nil, commentID: nil,
                                                    crewID: crewID, meetupID: meetup.storedID, detail: String(meetup.title.prefix(140)), now: meetup.createdAt)
                }
            }
            return meetup
        }
    }

    public func paceGroups(meetupID: Int64) throws -> [PaceGroup] {
        try database.readRows { db in
            try db.records(PaceGroup.self, "SELECT \(PaceGroup.selection.bare) FROM meetupGroups WHERE meetupID = ? ORDER BY position", [meetupID])
        }
    }

    /// Saves the host's changes and bumps the calendar sequence. When the time or the place
    /// changes, everyone going is notified with `change` (a human summary). With `reconfirm`
    /// (moved by more than half an hour, or elsewhere), each must also confirm their place
    /// within a day, or before the start if that is sooner (`expireConfirmations`).
    /// `groups`: the new pace groups, replacing the old ones while nobody has applied (nil
    /// leaves them as they are).
    public func updateMeetup(_ meetup: Meetup, by hostID: Int64, change: String?, reconfirm: Bool = false, groups: [PaceGroup]? = nil,
                             now: Date = Date()) throws -> Meetup {
        try database.write { db in
            guard let old = try db.record(Meetup.self, id: meetup.id), old.hostID == hostID else { throw StorageError.notFound }
            db.changed(.meetup(meetupID: try old.storedID))
            var meetup = meetup
            let oldGroups = try db.records(PaceGroup.self, "SELECT \(PaceGroup.selection.bare) FROM meetupGroups WHERE meetupID = ?", [old.id])
            if let groups, groups != oldGroups.map({ PaceGroup(label: $0.label, capacity: $0.capacity, leaderID: $0.leaderID) }) {
                let applied = try db.value("SELECT count(*) FROM meetupApplications WHERE meetupID = ? AND status != 'cancelled'", [old.id], as: Int.self) ?? 0
                guard applied == 0 else { throw StorageError.locked }
                try db.execute("DELETE FROM meetupGroups WHERE meetupID = ?", [old.id])
                try insertGroups(db, groups, meetupID: old.storedID)
                if !groups.isEmpty { meetup.capacity = groups.reduce(0) { $0 + $1.capacity } }
            } else if !oldGroups.isEmpty {
                meetup.capacity = old.capacity
            }
            guard meetup.capacity >= old.acceptedCount else { throw StorageError.full }
            meetup.acceptedCount = old.acceptedCount
            meetup.closedAt = old.closedAt
            (meetup.cancelledAt, meetup.cancelReason) = (old.cancelledAt, old.cancelReason)
            meetup.drawnAt = old.drawnAt
            meetup.lotteryResult = old.lotteryResult
            if old.lotterySeed != nil { (meetup.lotterySeed, meetup.lotteryCommitment) = (old.lotterySeed, old.lotteryCommitment) }
            meetup.sequence = old.sequence + 1
            meetup.createdAt = old.createdAt
            meetup.updatedAt = now
            try db.update(meetup)
            // Moved: its reminders go out again for the new time.
            if meetup.startsAt != old.startsAt {
                try db.execute("UPDATE meetups SET dayReminderAt = NULL, hourReminderAt = NULL WHERE id = ?", [old.id])
            }
            if let change {
                let deadline = min(now.addingTimeInterval(AppDatabase.confirmationWindow), meetup.startsAt)
                for user in try db.values("SELECT userID FROM meetupApplications WHERE meetupID = ? AND status = 'accepted'", [meetup.id], as: Int64.self) {
                    if reconfirm {
                        try db.execute("UPDATE meetupApplications SET confirmBy = ? WHERE meetupID = ? AND userID = ?", [deadline, meetup.id, user])
                    }
                    try database.insertNotification(db, userID: user, kind: reconfirm ? .meetupConfirm : .meetupChanged, actorID: hostID, postID: nil,
                                           commentID: nil, meetupID: meetup.id, detail: change, now: now)
                }
            }
            return meetup
        }
    }

    public func closeMeetup(id: Int64, by hostID: Int64, now: Date = Date()) throws {
        try database.write { db in
            db.changed(.meetup(meetupID: id))
            guard let meetup = try db.record(Meetup.self, id: id), meetup.hostID == hostID else { throw StorageError.notFound }
            try db.execute("UPDATE meetups SET closedAt = coalesce(closedAt, ?) WHERE id = ?", [now, id])
        }
    }

    /// Calls a meetup off before it starts: it stays, marked cancelled with the host's reason,
    /// takes no more signups, and everyone going, waiting or waiting for the host is told.
    /// Calendar clients see it cancelled (the sequence moves on). `.forbidden` once it started,
    /// `.duplicate` when it already was called off.
    public func cancelMeetup(id: Int64, by hostID: Int64, reason: String, now: Date = Date()) throws {
        try database.write { db in
            guard let meetup = try db.record(Meetup.self, id: id), meetup.hostID == hostID else { throw StorageError.notFound }
            guard !meetup.isCancelled else { throw StorageError.duplicate }
            guard now < meetup.startsAt else { throw StorageError.forbidden }
            try cancel(db, meetupID: id, by: hostID, reason: reason, now: now)
        }
    }

    /// Marks the meetup called off and tells everyone going or waiting, as `actorID`.
    func cancel(_ db: SQLConnection, meetupID: Int64, by actorID: Int64, reason: String, now: Date) throws {
        db.changed(.meetup(meetupID: meetupID))
        try db.execute("""
            UPDATE meetups SET cancelledAt = ?, cancelReason = ?, closedAt = coalesce(closedAt, ?), sequence = sequence + 1, updatedAt = ?
            WHERE id = ?
            """, [now, reason, now, now, meetupID])
        try db.execute("UPDATE meetupApplications SET confirmBy = NULL WHERE meetupID = ?", [meetupID])
        for user in try db.values("SELECT userID FROM meetupApplications WHERE meetupID = ? AND status IN ('accepted', 'pending', 'waitlisted')",
                                  [meetupID], as: Int64.self) {
            try database.insertNotification(db, userID: user, kind: .meetupCancelled, actorID: actorID, postID: nil, commentID: nil,
                                            meetupID: meetupID, detail: reason, now: now)
        }
    }

    /// Reminds everyone going to a meetup that starts within a day, and again within the hour,
    /// each once (the meetup's `dayReminderAt` and `hourReminderAt`, set by one transaction
    /// only, however many servers sweep). A meetup called off or hidden reminds nobody; one
    /// joined within the hour gets only the hour's. Returns the reminders sent.
    @discardableResult
    public func sendReminders(now: Date = Date()) throws -> Int {
        let windows: [(kind: Notification.Kind, column: String, from: Date, to: Date)] = [
            (.meetupTomorrow, "dayReminderAt", now.addingTimeInterval(3_600), now.addingTimeInterval(86_400)),
            (.meetupSoon, "hourReminderAt", now, now.addingTimeInterval(3_600)),
        ]
        func due(_ db: SQLConnection, _ window: (kind: Notification.Kind, column: String, from: Date, to: Date)) throws -> [(Int64, Int64)] {
            try db.fetchAll("""
                SELECT id, hostID FROM meetups
                WHERE hourReminderAt IS NULL AND \(window.column) IS NULL AND startsAt > ? AND startsAt <= ?
                  AND cancelledAt IS NULL AND hiddenAt IS NULL
                """, [window.from, window.to]) { (try $0.decode("id"), try $0.decode("hostID")) }
        }
        // Most sweeps find nothing due: a read, not a write transaction, tells.
        guard try database.readRows({ db in try windows.contains { try !due(db, $0).isEmpty } }) else { return 0 }
        return try database.write { db in
            var sent = 0
            for window in windows {
                for (meetupID, hostID) in try due(db, window) {
                    // The hour's reminder also stands for the day's, if that never went. Whoever
                    // sets it sends it.
                    guard try db.execute("""
                        UPDATE meetups SET hourReminderAt = CASE WHEN ? THEN ? ELSE hourReminderAt END, dayReminderAt = coalesce(dayReminderAt, ?)
                        WHERE id = ? AND \(window.column) IS NULL
                        """, [window.kind == .meetupSoon, now, now, meetupID]) == 1 else { continue }
                    for user in try db.values("SELECT userID FROM meetupApplications WHERE meetupID = ? AND status = 'accepted'", [meetupID], as: Int64.self) {
                        try database.insertNotification(db, userID: user, kind: window.kind, actorID: hostID, postID: nil, commentID: nil,
                                                        meetupID: meetupID, now: now)
                        sent += 1
                    }
                }
            }
            return sent
        }
    }

    /// Whether the host may delete the meetup rather than call it off: it has not started and
    /// nobody but the host signed up (those who withdrew do not count).
    public func isDeletable(_ meetup: Meetup, now: Date = Date()) throws -> Bool {
        try database.readRows { db in try isDeletable(db, meetup, now: now) }
    }

    private func isDeletable(_ db: SQLConnection, _ meetup: Meetup, now: Date) throws -> Bool {
        guard now < meetup.startsAt else { return false }
        return try db.value("SELECT NOT EXISTS (SELECT 1 FROM meetupApplications WHERE meetupID = ? AND status != 'cancelled')",
                            [meetup.id], as: Bool.self) ?? false
    }

    /// Deletes a meetup nobody joined, with its talk; returns the talk's photos for the caller
    /// to remove from media. `.locked` when someone signed up meanwhile.
    public func deleteMeetup(id: Int64, by hostID: Int64, now: Date = Date()) throws -> [String] {
        try database.write { db in
            guard let meetup = try db.record(Meetup.self, id: id), meetup.hostID == hostID else { throw StorageError.notFound }
            guard try isDeletable(db, meetup, now: now) else { throw StorageError.locked }
            let files = try db.values("""
                SELECT messagePhotos.fileName FROM messagePhotos JOIN messages ON messages.id = messagePhotos.messageID
                JOIN rooms ON rooms.id = messages.roomID WHERE rooms.meetupID = ?
                """, [id], as: String.self)
            db.changed(.meetup(meetupID: id))
            try db.execute("DELETE FROM meetups WHERE id = ?", [id])
            return files
        }
    }

    // MARK: - Signing up

    /// Applies `userID`: accepted while there is room (first come), waitlisted after that, or
    /// pending for the host (approval). Eligibility and the deadline are checked here, in the
    /// same transaction that takes the place.
    public func apply(meetupID: Int64, userID: Int64, groupID: Int64? = nil, now: Date = Date()) throws -> ApplyResult {
        try database.write { db in
            db.changed(.meetup(meetupID: meetupID))
            guard let meetup = try db.record(Meetup.self, id: meetupID), let user = try db.record(User.self, id: userID) else {
                throw StorageError.notFound
            }
            if meetup.crewOnly, let crewID = meetup.crewID, try database.crewRole(db, crewID: crewID, userID: userID)?.isMember != true {
                throw StorageError.forbidden
            }
            guard meetup.hostID != userID else { return .alreadyApplied(.accepted) }
            if try meetup.hiddenAt != nil || database.isBlocked(db, meetup.hostID, userID) { throw StorageError.forbidden }
            let existing = try db.value("SELECT status FROM meetupApplications WHERE meetupID = ? AND userID = ?", [meetupID, userID], as: String.self).flatMap(ApplicationStatus.init(rawValue:))
            if let existing, existing != .cancelled { return .alreadyApplied(existing) }
            if meetup.isClosed(at: now) { return .closed }
            let reasons = meetup.ineligibility(of: user, at: now)
            guard reasons.isEmpty else { return .notEligible(reasons) }

            // With pace groups, one of them must be chosen, and places are counted per group.
            let groups = try db.records(PaceGroup.self, "SELECT \(PaceGroup.selection.bare) FROM meetupGroups WHERE meetupID = ?", [meetupID])
            let group = groups.first { $0.id == groupID }
            if !groups.isEmpty && group == nil { return .chooseGroup }
            let status: ApplicationStatus
            if meetup.signupMode == .approval || meetup.signupMode == .lottery {
                // Waits for the host, or for the draw.
                status = .pending
            } else if group.map({ $0.acceptedCount < $0.capacity }) ?? (meetup.acceptedCount < meetup.capacity) {
                status = .accepted
                try takePlace(db, meetupID: meetupID, groupID: group?.id)
            } else {
                status = .waitlisted
            }
            try db.execute("""
                INSERT INTO meetupApplications (meetupID, userID, status, queuedAt, groupID) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (meetupID, userID) DO UPDATE SET status = excluded.status, queuedAt = excluded.queuedAt,
                    groupID = excluded.groupID, attended = NULL
                """, [meetupID, userID, status.rawValue, now, group?.id])
            if status == .pending && meetup.signupMode == .approval {
                try database.insertNotification(db, userID: meetup.hostID, kind: .meetupApplied, actorID: userID, postID: nil, commentID: nil,
                                       meetupID: meetupID, now: now)
            }
            return status == .accepted ? .accepted : status == .pending ? .pending : .waitlisted
        }
    }

    /// Withdraws an application. A place given up goes to the first on the waitlist, who is told.
    public func cancelApplication(meetupID: Int64, userID: Int64, now: Date = Date()) throws {
        try database.write { db in
            db.changed(.meetup(meetupID: meetupID))
            guard let meetup = try db.record(Meetup.self, id: meetupID) else { throw StorageError.notFound }
            guard let (status, groupID) = try applicationStatus(db, meetupID: meetupID, userID: userID),
                  [.accepted, .pending, .waitlisted].contains(status)
            else { throw StorageError.notFound }
            guard now < meetup.startsAt else { throw StorageError.forbidden }
            try db.execute("UPDATE meetupApplications SET status = 'cancelled', confirmBy = NULL WHERE meetupID = ? AND userID = ?", [meetupID, userID])
            guard status == .accepted else { return }
            try releasePlace(db, meetup, groupID: groupID, now: now)
        }
    }

    /// Draws every lottery whose deadline has passed, each exactly once (the `drawnAt` that
    /// only one transaction can set), however many sweeps race or however late the server
    /// started. The rule, which anyone can recompute once the seed is shown: entrants in order
    /// of `rank(seed + ":" + username)` (SHA-256, hex), the first `capacity` get places and
    /// the rest wait in that order. Everyone is notified. Returns the meetups drawn.
    @discardableResult
    public func drawLotteries(now: Date = Date(), rank: (String) -> String) throws -> [Int64] {
        // Most calls find nothing due: a read, not a write transaction, tells.
        let anyDue = try database.read { db in
            try db.value("SELECT EXISTS (SELECT 1 FROM meetups WHERE signupMode = 'lottery' AND drawnAt IS NULL AND deadline <= ?)", [now], as: Bool.self) ?? false
        }
        guard anyDue else { return [] }
        return try database.write { db in
            let due = try db.values("""
                SELECT id FROM meetups WHERE signupMode = 'lottery' AND drawnAt IS NULL AND deadline <= ?
                """, [now], as: Int64.self)
            var drawn: [Int64] = []
            for id in due {
                guard try db.execute("UPDATE meetups SET drawnAt = ? WHERE id = ? AND drawnAt IS NULL", [now, id]) == 1,
                      let meetup = try db.record(Meetup.self, id: id), let seed = meetup.lotterySeed
                else { continue }
                let entrants = try db.fetchAll("""
                    SELECT a.userID, users.username, a.groupID FROM meetupApplications a JOIN users ON users.id = a.userID
                    WHERE a.meetupID = ? AND a.status = 'pending'
                    """, [id]) { (id: try $0.decode("userID", as: Int64.self), username: try $0.decode("username", as: String.self),
                                  group: try $0.decode("groupID", as: Int64?.self)) }
                    .map { (id: $0.id, username: $0.username, group: $0.group, key: rank(seed + ":" + $0.username)) }
                    .sorted { $0.key < $1.key }
                try db.execute("UPDATE meetups SET lotteryResult = ? WHERE id = ?", [entrants.map(\.username).joined(separator: ","), id])
                db.changed(.meetup(meetupID: id))
                // Places left in each pace group (or in the meetup, without groups), filled in drawn order.
                var free: [Int64?: Int] = [nil: max(0, meetup.capacity - meetup.acceptedCount)]
                for group in try db.records(PaceGroup.self, "SELECT \(PaceGroup.selection.bare) FROM meetupGroups WHERE meetupID = ?", [id]) {
                    free[group.id] = max(0, group.capacity - group.acceptedCount)
                }
                var waiting: [Int64?: Int] = [:]
                for (index, entrant) in entrants.enumerated() {
                    let won = (free[entrant.group] ?? 0) > 0
                    if won {
                        free[entrant.group, default: 0] -= 1
                        try takePlace(db, meetupID: id, groupID: entrant.group)
                    } else {
                        waiting[entrant.group, default: 0] += 1
                    }
                    // The waitlist keeps the drawn order: a millisecond apart.
                    try db.execute("UPDATE meetupApplications SET status = ?, queuedAt = ? WHERE meetupID = ? AND userID = ?", [won ? "accepted" : "waitlisted", now.addingTimeInterval(Double(index) / 1000), id, entrant.id])
                    try database.insertNotification(db, userID: entrant.id, kind: won ? .meetupLotteryWon : .meetupLotteryLost, actorID: meetup.hostID,
                                           postID: nil, commentID: nil, meetupID: id, detail: won ? "" : String(waiting[entrant.group] ?? 0), now: now)
                }
                drawn.append(id)
            }
            return drawn
        }
    }

    /// The meetup's check-in code, made by `make` the first time it is asked for.
    public func checkinCode(meetupID: Int64, make: () -> String) throws -> String {
        if let code = try database.readRows({ db in try db.value("SELECT checkinCode FROM meetups WHERE id = ?", [meetupID], as: String.self) }) {
            return code
        }
        return try database.write { db in
            if let code = try db.value("SELECT checkinCode FROM meetups WHERE id = ?", [meetupID], as: String.self) { return code }
            let code = make()
            try db.execute("UPDATE meetups SET checkinCode = ? WHERE id = ? AND checkinCode IS NULL", [code, meetupID])
            return try db.value("SELECT checkinCode FROM meetups WHERE id = ?", [meetupID], as: String.self) ?? code
        }
    }

    /// Checks `userID` in with `code`, in one transaction: the count of wrong codes is read and
    /// raised in the same transaction that compares, so guesses sent in parallel still stop
    /// at five.
    public func checkIn(meetupID: Int64, userID: Int64, code: String, now: Date = Date()) throws -> AppDatabase.CheckIn {
        try database.write { db in
            db.changed(.meetup(meetupID: meetupID))
            guard let meetup = try db.record(Meetup.self, id: meetupID) else { throw StorageError.notFound }
            guard meetup.isCheckInOpen(at: now), let expected = meetup.checkinCode else { return .notOpen }
            guard try db.value("SELECT status FROM meetupApplications WHERE meetupID = ? AND userID = ?", [meetupID, userID], as: String.self) == ApplicationStatus.accepted.rawValue
            else { return .notGoing }
            let failures = try db.value("SELECT failures FROM checkinAttempts WHERE meetupID = ? AND userID = ?", [meetupID, userID], as: Int.self) ?? 0
            guard failures < 5 else { return .locked }
            guard sameBytes(code.utf8, expected.utf8) else {
                try db.execute("""
                    INSERT INTO checkinAttempts (meetupID, userID, failures) VALUES (?, ?, 1)
                    ON CONFLICT (meetupID, userID) DO UPDATE SET failures = checkinAttempts.failures + 1
                    """, [meetupID, userID])
                return failures + 1 >= 5 ? .locked : .wrongCode(triesLeft: 5 - failures - 1)
            }
            try db.execute("UPDATE meetupApplications SET attended = TRUE WHERE meetupID = ? AND userID = ?", [meetupID, userID])
            return .checkedIn
        }
    }

    /// Keeps the place of someone asked to confirm it; refused once the deadline has passed.
    public func confirmPlace(meetupID: Int64, userID: Int64, now: Date = Date()) throws {
        try database.write { db in
            db.changed(.meetup(meetupID: meetupID))
            let confirmed = try db.execute("""
                UPDATE meetupApplications SET confirmBy = NULL
                WHERE meetupID = ? AND userID = ? AND status = 'accepted' AND confirmBy > ?
                """, [meetupID, userID, now])
            guard confirmed == 1 else { throw StorageError.forbidden }
        }
    }

    /// Places not confirmed by their deadline are given up: each goes to the first on the
    /// waitlist, and the person who did not confirm is told. Each expired place is handled
    /// once, in one transaction, however many sweeps race. Returns how many places expired.
    @discardableResult
    public func expireConfirmations(now: Date = Date()) throws -> Int {
        let expired = """
            SELECT meetupID, userID, groupID FROM meetupApplications
            WHERE confirmBy IS NOT NULL AND confirmBy <= ? AND status = 'accepted'
            """
        // Most calls find nothing due: a read, not a write transaction, tells.
        func expiredPlaces(_ db: SQLConnection) throws -> [(meetupID: Int64, userID: Int64, groupID: Int64?)] {
            try db.fetchAll(expired, [now]) {
                (try $0.decode("meetupID"), try $0.decode("userID"), try $0.decode("groupID"))
            }
        }
        guard try !database.readRows(expiredPlaces).isEmpty else { return 0 }
        return try database.write { db in
            let rows = try expiredPlaces(db)
            for (meetupID, userID, groupID) in rows {
                guard let meetup = try db.record(Meetup.self, id: meetupID) else { continue }
                db.changed(.meetup(meetupID: meetupID))
                try db.execute("UPDATE meetupApplications SET status = 'cancelled', confirmBy = NULL WHERE meetupID = ? AND userID = ?", [meetupID, userID])
                try database.insertNotification(db, userID: userID, kind: .meetupUnconfirmed, actorID: meetup.hostID, postID: nil, commentID: nil,
                                       meetupID: meetupID, now: now)
                try releasePlace(db, meetup, groupID: groupID, now: now)
            }
            return rows.count
        }
    }

    /// The host accepts or rejects a pending application; accepting past capacity is refused.
    public func decideApplication(meetupID: Int64, userID: Int64, by hostID: Int64, accept: Bool, now: Date = Date()) throws {
        try database.write { db in
            db.changed(.meetup(meetupID: meetupID))
            guard let meetup = try db.record(Meetup.self, id: meetupID), meetup.hostID == hostID else { throw StorageError.forbidden }
            guard let (status, groupID) = try applicationStatus(db, meetupID: meetupID, userID: userID), status == .pending
            else { throw StorageError.notFound }
            if accept { try takePlace(db, meetupID: meetupID, groupID: groupID) }
            try db.execute("UPDATE meetupApplications SET status = ? WHERE meetupID = ? AND userID = ?", [accept ? "accepted" : "rejected", meetupID, userID])
            try database.insertNotification(db, userID: userID, kind: accept ? .meetupAccepted : .meetupRejected, actorID: hostID,
                                   postID: nil, commentID: nil, meetupID: meetupID, now: now)
        }
    }

    /// After the start, the host records who came; `present` holds the accepted users who did.
    public func recordAttendance(meetupID: Int64, by hostID: Int64, present: Set<Int64>, now: Date = Date()) throws {
        try database.write { db in
            db.changed(.meetup(meetupID: meetupID))
            guard let meetup = try db.record(Meetup.self, id: meetupID), meetup.hostID == hostID else { throw StorageError.forbidden }
            guard now >= meetup.startsAt else { throw StorageError.forbidden }
            for user in try db.values("SELECT userID FROM meetupApplications WHERE meetupID = ? AND status = 'accepted'", [meetupID], as: Int64.self) {
                try db.execute("UPDATE meetupApplications SET attended = ? WHERE meetupID = ? AND userID = ?", [present.contains(user), meetupID, user])
            }
        }
    }

    // MARK: - Reads

    public func meetup(id: Int64) throws -> Meetup? {
        try database.readRows { db in try db.record(Meetup.self, id: id) }
    }

    /// Applicants of a meetup in queue order, with their status.
    public func participants(meetupID: Int64) throws -> [Participant] {
        try database.readRows { db in
            try db.fetchAll("""
                SELECT \(User.selection.qualified), a.status AS applicationStatus, a.attended AS applicationAttended, a.groupID AS applicationGroup
                FROM meetupApplications a JOIN users ON users.id = a.userID
                WHERE a.meetupID = ? AND a.status IN ('accepted', 'pending', 'waitlisted') ORDER BY a.queuedAt, a.id
                """, [meetupID]) { row in
                Participant(user: try User(row: row, startingAt: 0), status: ApplicationStatus(rawValue: try row.decode("applicationStatus")) ?? .pending,
                            attended: try row.decode("applicationAttended"), groupID: try row.decode("applicationGroup"))
            }
        }
    }

    /// The viewer's application status, their place on the waitlist (1-based) when waiting,
    /// and the deadline to confirm their place when the host moved the meetup.
    public func application(meetupID: Int64, userID: Int64) throws -> (status: ApplicationStatus, waitlistPlace: Int?, confirmBy: Date?)? {
        try database.read { db in
            guard let row = try db.fetchOne("SELECT id, status, queuedAt, confirmBy, groupID FROM meetupApplications WHERE meetupID = ? AND userID = ?",
                                            [meetupID, userID], { row in
                (id: try row.decode("id", as: Int64.self), status: ApplicationStatus(rawValue: try row.decode("status")),
                 queuedAt: try row.decode("queuedAt", as: Date.self), confirmBy: try row.decode("confirmBy", as: Date?.self), groupID: try row.decode("groupID", as: Int64?.self))
            }), let status = row.status
            else { return nil }
            guard status == .waitlisted else { return (status, nil, row.confirmBy) }
            // Waiting is per pace group: only those ahead in the same one count.
            let ahead = try db.value("""
                SELECT count(*) FROM meetupApplications WHERE meetupID = ? AND status = 'waitlisted' AND groupID IS NOT DISTINCT FROM ?
                    AND (queuedAt < ? OR (queuedAt = ? AND id < ?))
                """, [meetupID, row.groupID, row.queuedAt, row.queuedAt, row.id], as: Int.self) ?? 0
            return (status, ahead + 1, nil)
        }
    }

    public func waitlistLength(meetupID: Int64) throws -> Int {
        try database.readRows { db in
            try db.value("SELECT count(*) FROM meetupApplications WHERE meetupID = ? AND status = 'waitlisted'", [meetupID], as: Int.self) ?? 0
        }
    }

    /// Share of finished meetups a member attended, over those where attendance was taken.
    /// What hosts recorded of each of `userIDs` at meetups since `since`: how often they went,
    /// and how often they did not come although going. For the applicants a host decides on.
    public func attendanceRecords(userIDs: [Int64], since: Date, now: Date = Date()) throws -> [Int64: (went: Int, noShows: Int)] {
        guard !userIDs.isEmpty else { return [:] }
        return try database.readRows { db in
            let rows = try db.fetchAll("""
                SELECT a.userID, count(*) FILTER (WHERE a.attended = TRUE) AS went, count(*) FILTER (WHERE a.attended = FALSE) AS noShows
                FROM meetupApplications a JOIN meetups ON meetups.id = a.meetupID
                WHERE a.userID IN (\(db.idList("?"))) AND a.status = 'accepted' AND a.attended IS NOT NULL
                  AND meetups.startsAt >= ? AND meetups.startsAt < ?
                GROUP BY a.userID
                """, [SQLConnection.jsonArray(userIDs), since, now]) { row in
                (try row.decode("userID", as: Int64.self), (went: try row.decode("went", as: Int.self), noShows: try row.decode("noShows", as: Int.self)))
            }
            return Dictionary(rows, uniquingKeysWith: { first, _ in first })
        }
    }

    public func attendance(userID: Int64) throws -> (attended: Int, recorded: Int) {
        try database.readRows { connection in
            try connection.fetchOne("""
                SELECT count(*) FILTER (WHERE attended = TRUE) AS attended, count(*) AS recorded
                FROM meetupApplications WHERE userID = ? AND status = 'accepted' AND attended IS NOT NULL
                """, [userID]) { row in (attended: try row.decode("attended"), recorded: try row.decode("recorded")) }
        } ?? (0, 0)
    }
}

extension AppDatabase {
    public enum CheckIn: Equatable, Sendable {
        case checkedIn
        /// A wrong code, and how many tries are left.
        case wrongCode(triesLeft: Int)
        case locked
        case notOpen
        case notGoing
    }

    /// How long people going have to confirm after a move (at most until the start).
    public static let confirmationWindow: TimeInterval = 24 * 3600
}

extension MeetupStore {
    private func insertGroups(_ db: SQLConnection, _ groups: [PaceGroup], meetupID: Int64) throws {
        for (position, group) in groups.enumerated() {
            var group = group
            group.meetupID = meetupID
            group.position = position
            group.acceptedCount = 0
            group.id = try db.insert(group)
        }
    }

    /// An application's status and pace group, nil when there is none.
    private func applicationStatus(_ db: SQLConnection, meetupID: Int64, userID: Int64) throws -> (ApplicationStatus, groupID: Int64?)? {
        try db.fetchOne("SELECT status, groupID FROM meetupApplications WHERE meetupID = ? AND userID = ?", [meetupID, userID]) { row in
            (try row.decodeRawValue("status"), try row.decode("groupID"))
        }
    }

    /// One place taken, in the meetup and in its pace group: the CHECKs refuse one too many.
    private func takePlace(_ db: SQLConnection, meetupID: Int64, groupID: Int64?) throws {
        try db.refusing(as: .full) {
            try db.execute("UPDATE meetups SET acceptedCount = acceptedCount + 1 WHERE id = ?", [meetupID])
            if let groupID { try db.execute("UPDATE meetupGroups SET acceptedCount = acceptedCount + 1 WHERE id = ?", [groupID]) }
        }
    }

    /// A place given up (in `groupID`'s group, if any): the first waiting for it takes it and is told.
    private func releasePlace(_ db: SQLConnection, _ meetup: Meetup, groupID: Int64?, now: Date) throws {
        let meetupID = try meetup.storedID
        try db.execute("UPDATE meetups SET acceptedCount = acceptedCount - 1 WHERE id = ?", [meetupID])
        if let groupID { try db.execute("UPDATE meetupGroups SET acceptedCount = acceptedCount - 1 WHERE id = ?", [groupID]) }
        if let next = try db.value("""
            SELECT userID FROM meetupApplications WHERE meetupID = ? AND status = 'waitlisted' AND groupID IS NOT DISTINCT FROM ? ORDER BY queuedAt, id LIMIT 1
            """, [meetupID, groupID], as: Int64.self) {
            try db.execute("UPDATE meetupApplications SET status = 'accepted' WHERE meetupID = ? AND userID = ?", [meetupID, next])
            try takePlace(db, meetupID: meetupID, groupID: groupID)
            try database.insertNotification(db, userID: next, kind: .meetupPromoted, actorID: meetup.hostID, postID: nil, commentID: nil,
                                   meetupID: meetupID, now: now)
        }
    }
}
