import Foundation

extension CrewStore {
    // MARK: - Crews

    /// Creates a crew owned by `ownerID`. A slug already taken gets `-2`, `-3`… appended.
    public func createCrew(ownerID: Int64, fields: CrewFields, inviteCode: String?, now: Date = Date()) throws -> Crew {
        try database.write { db in
            var slug = fields.slug
            var suffix = 1
            while try db.value("SELECT EXISTS (SELECT 1 FROM crews WHERE slug = ?)", [slug]) == true {
                suffix += 1
                slug = String(fields.slug.prefix(36)) + "-\(suffix)"
            }
            var crew = Crew(id: nil, slug: slug, name: fields.name, sport: fields.sport, region: fields.region,
                            description: fields.description, descriptionHTML: fields.descriptionHTML,
                            coverFileName: nil, coverWidth: nil, coverHeight: nil,
                            meetingTime: fields.meetingTime, meetingPlace: fields.meetingPlace,
                            feeAmount: fields.feeAmount, feeCurrency: fields.feeCurrency, feePeriod: fields.feePeriod,
                            joinPolicy: fields.joinPolicy, inviteCode: inviteCode, memberCap: fields.memberCap,
                            memberCount: 1, createdAt: now, lastActivityAt: now, hiddenAt: nil, coverTone: nil, refundDays: fields.refundDays)
            crew.id = try db.insert(crew)
            try db.execute("INSERT INTO crewMembers (crewID, userID, role, joinedAt) VALUES (?, ?, 'owner', ?)", [crew.id, ownerID, now])
            return crew
        }
    }

    /// Saves a crew's fields; owner and staff only. A slug taken by another crew is refused.
    public func updateCrew(id: Int64, by userID: Int64, fields: CrewFields) throws -> Crew {
        try database.write { db in
            try database.requireStaff(db, crewID: id, userID: userID)
            guard var crew = try db.record(Crew.self, id: id) else { throw StorageError.notFound }
            if try db.value("SELECT EXISTS (SELECT 1 FROM crews WHERE slug = ? AND id != ?)", [fields.slug, id]) == true { throw StorageError.slugTaken }
            if let cap = fields.memberCap, cap < crew.memberCount { throw StorageError.full }
            crew.slug = fields.slug
            crew.name = fields.name
            crew.sport = fields.sport
            crew.region = fields.region
            crew.description = fields.description
            crew.descriptionHTML = fields.descriptionHTML
            crew.meetingTime = fields.meetingTime
            crew.meetingPlace = fields.meetingPlace
            crew.feeAmount = fields.feeAmount
            crew.feeCurrency = fields.feeCurrency
            crew.feePeriod = fields.feePeriod
            crew.joinPolicy = fields.joinPolicy
            crew.memberCap = fields.memberCap
            crew.refundDays = fields.refundDays
            try db.update(crew)
            return crew
        }
    }

    /// Sets the cover photo; returns the previous file name, for the caller to delete.
    public func setCrewCover(id: Int64, by userID: Int64, photo: NewPhoto) throws -> String? {
        try database.write { db in
            try database.requireStaff(db, crewID: id, userID: userID)
            let previous = try db.value("SELECT coverFileName FROM crews WHERE id = ?", [id], as: String.self)
            try db.execute("UPDATE crews SET coverFileName = ?, coverWidth = ?, coverHeight = ?, coverTone = ?, coverJPEGWidths = ? WHERE id = ?",
                           [photo.fileName, photo.width, photo.height, photo.tone, WidthList.text(photo.jpegWidths), id])
            return previous
        }
    }

    public func setInviteCode(crewID: Int64, by userID: Int64, code: String) throws {
        try database.write { db in
            try database.requireStaff(db, crewID: crewID, userID: userID)
            try db.execute("UPDATE crews SET inviteCode = ? WHERE id = ?", [code, crewID])
        }
    }

    public func crew(id: Int64) throws -> Crew? {
        try database.read { db in try db.record(Crew.self, id: id) }
    }

    public func crew(slug: String) throws -> Crew? {
        try database.readRows { db in try db.record(Crew.self, "SELECT \(Crew.selection.bare) FROM crews WHERE slug = ?", [slug.lowercased()]) }
    }

    public func crewRole(crewID: Int64, userID: Int64) throws -> CrewRole? {
        try database.read { db in try database.crewRole(db, crewID: crewID, userID: userID) }
    }

    // MARK: - Joining and leaving

    /// Joins by the crew's policy: a member at once (open, or invite with the right code) or a
    /// pending request that notifies the staff (approval). Returns the new role. Refused
    /// (`forbidden`) while the crew's owner and the member block each other either way.
    public func joinCrew(id: Int64, userID: Int64, inviteCode: String?, now: Date = Date()) throws -> CrewRole {
        try database.write { db in
            guard let crew = try db.record(Crew.self, id: id) else { throw StorageError.notFound }
            if try database.crewRole(db, crewID: id, userID: userID) != nil { throw StorageError.duplicate }
            // Not into the crew of someone who blocks them, or whom they block.
            if let owner = try db.value("SELECT userID FROM crewMembers WHERE crewID = ? AND role = 'owner'", [id], as: Int64.self),
               try database.isBlocked(db, owner, userID) {
                throw StorageError.forbidden
            }
            switch crew.joinPolicy {
            case .approval:
                try db.execute("INSERT INTO crewMembers (crewID, userID, role, joinedAt) VALUES (?, ?, 'pending', ?)", [id, userID, now])
                for staff in try db.values("SELECT userID FROM crewMembers WHERE crewID = ? AND role IN ('owner', 'staff')", [id], as: Int64.self) {
                    try database.insertNotification(db, userID: staff, kind: .crewRequest, actorID: userID, postID: nil, commentID: nil, crewID: id, now: now)
                }
                return .pending
            case .invite:
                guard let code = crew.inviteCode, let given = inviteCode?.uppercased(), given == code else {
                    throw StorageError.wrongInviteCode
                }
                fallthrough
            case .open:
                try database.addMember(db, crewID: id, userID: userID, now: now)
                return .member
            }
        }
    }

    /// Staff accept or reject a pending request; the applicant is notified either way. A
    /// rejected applicant's join fee is returned to be given back.
    @discardableResult
    public func decideJoinRequest(crewID: Int64, applicantID: Int64, by staffID: Int64, accept: Bool, now: Date = Date()) throws -> Payment? {
        try database.write { db in
            try database.requireStaff(db, crewID: crewID, userID: staffID)
            guard try database.crewRole(db, crewID: crewID, userID: applicantID) == .pending else { throw StorageError.notFound }
            if accept {
                try database.addMember(db, crewID: crewID, userID: applicantID, now: now)
            } else {
                try db.execute("DELETE FROM crewMembers WHERE crewID = ? AND userID = ?", [crewID, applicantID])
                db.changed(.crew(crewID: crewID))
            }
            try database.insertNotification(db, userID: applicantID, kind: accept ? .crewAccepted : .crewRejected, actorID: staffID,
                                   postID: nil, commentID: nil, crewID: crewID, now: now)
            return accept ? nil : try database.voidJoinFee(db, crewID: crewID, userID: applicantID, why: "declined")
        }
    }

    /// Leaves a crew (or withdraws a request). The owner must hand the crew over first. A join
    /// fee paid within the crew's refund window (or for a request never accepted) is returned
    /// to be given back.
    @discardableResult
    public func leaveCrew(id: Int64, userID: Int64, now: Date = Date()) throws -> Payment? {
        try database.write { db in
            guard let role = try database.crewRole(db, crewID: id, userID: userID) else { throw StorageError.notFound }
            guard role != .owner else { throw StorageError.ownerCannotLeave }
            try removeMembership(db, crewID: id, userID: userID, role: role)
            if role == .pending { return try database.voidJoinFee(db, crewID: id, userID: userID, why: "withdrawn") }
            let days = try db.value("SELECT refundDays FROM crews WHERE id = ?", [id], as: Int.self) ?? 0
            guard days > 0 else { return nil }
            return try database.voidJoinFee(db, crewID: id, userID: userID, why: "left within \(days) days", paidAfter: now.addingTimeInterval(-Double(days) * 86_400))
        }
    }

    /// Staff remove a member; only the owner removes staff, and nobody removes the owner.
    public func removeCrewMember(crewID: Int64, userID: Int64, by staffID: Int64) throws {
        try database.write { db in
            let actor = try database.requireStaff(db, crewID: crewID, userID: staffID)
            guard let role = try database.crewRole(db, crewID: crewID, userID: userID), role != .pending else { throw StorageError.notFound }
            guard role != .owner, role == .member || actor == .owner else { throw StorageError.forbidden }
            try removeMembership(db, crewID: crewID, userID: userID, role: role)
        }
    }

    // MARK: - Roles

    /// The owner makes a member staff, or staff a member again.
    public func setCrewRole(crewID: Int64, userID: Int64, role: CrewRole, by ownerID: Int64) throws {
        guard role == .staff || role == .member else { throw StorageError.forbidden }
        try database.write { db in
            guard try database.crewRole(db, crewID: crewID, userID: ownerID) == .owner else { throw StorageError.forbidden }
            guard let current = try database.crewRole(db, crewID: crewID, userID: userID), current == .member || current == .staff else {
                throw StorageError.notFound
            }
            try db.execute("UPDATE crewMembers SET role = ? WHERE crewID = ? AND userID = ?", [role.rawValue, crewID, userID])
        }
    }

    /// The owner hands the crew to a member or staff, and stays on as staff.
    public func transferCrew(crewID: Int64, to userID: Int64, by ownerID: Int64) throws {
        try database.write { db in
            guard try database.crewRole(db, crewID: crewID, userID: ownerID) == .owner else { throw StorageError.forbidden }
            guard let current = try database.crewRole(db, crewID: crewID, userID: userID), current == .member || current == .staff else {
                throw StorageError.notFound
            }
            // Demote first: the unique index allows one owner at a time.
            try db.execute("UPDATE crewMembers SET role = 'staff' WHERE crewID = ? AND userID = ?", [crewID, ownerID])
            try db.execute("UPDATE crewMembers SET role = 'owner' WHERE crewID = ? AND userID = ?", [crewID, userID])
        }
    }

    // MARK: - Reads

    /// Members (owner, staff, then members, by join date), or only pending requests.
    public func crewMembers(crewID: Int64, pending: Bool = false) throws -> [CrewMember] {
        try database.read { db in
            try db.fetchAll("""
                SELECT \(User.selection.qualified), crewMembers.role AS crewRole, crewMembers.joinedAt AS crewJoinedAt
                FROM crewMembers JOIN users ON users.id = crewMembers.userID
                WHERE crewMembers.crewID = ? AND (crewMembers.role = 'pending') = ?
                ORDER BY CASE crewMembers.role WHEN 'owner' THEN 0 WHEN 'staff' THEN 1 ELSE 2 END, crewMembers.joinedAt
                """, [crewID, pending]) { row in
                CrewMember(user: try User(row: row, startingAt: 0), role: CrewRole(rawValue: try row.decode("crewRole")) ?? .member,
                           joinedAt: try row.decode("crewJoinedAt"))
            }
        }
    }

    /// The crews `userID` belongs to (not pending), most active first.
    public func crews(ofUser userID: Int64) throws -> [(crew: Crew, role: CrewRole)] {
        try database.readRows { connection in
            try connection.fetchAll("""
                SELECT \(Crew.selection.qualified), crewMembers.role AS crewRole FROM crewMembers JOIN crews ON crews.id = crewMembers.crewID
                WHERE crewMembers.userID = ? AND crewMembers.role != 'pending' ORDER BY crews.lastActivityAt DESC
                """, [userID]) { row in
                (try Crew(row: row, startingAt: 0), CrewRole(rawValue: try row.decode("crewRole")) ?? .member)
            }
        }
    }
}

extension AppDatabase {
    func crewRole(_ db: SQLConnection, crewID: Int64, userID: Int64) throws -> CrewRole? {
        try db.value("SELECT role FROM crewMembers WHERE crewID = ? AND userID = ?", [crewID, userID], as: String.self)
            .flatMap(CrewRole.init(rawValue:))
    }

    @discardableResult
    func requireStaff(_ db: SQLConnection, crewID: Int64, userID: Int64) throws -> CrewRole {
        guard let role = try crewRole(db, crewID: crewID, userID: userID), role.isStaff else { throw StorageError.forbidden }
        return role
    }

    /// Counts a new member in; the crew's CHECK refuses a count above the cap.
    func addMember(_ db: SQLConnection, crewID: Int64, userID: Int64, now: Date) throws {
        db.changed(.crew(crewID: crewID))
        try db.refusing(as: .full) {
            try db.execute("UPDATE crews SET memberCount = memberCount + 1, lastActivityAt = ? WHERE id = ?", [now, crewID])
        }
        try db.execute("""
            INSERT INTO crewMembers (crewID, userID, role, joinedAt) VALUES (?, ?, 'member', ?)
            ON CONFLICT (crewID, userID) DO UPDATE SET role = 'member', joinedAt = excluded.joinedAt
            """, [crewID, userID, now])
    }
}

extension CrewStore {
    private func removeMembership(_ db: SQLConnection, crewID: Int64, userID: Int64, role: CrewRole) throws {
        db.changed(.crew(crewID: crewID))
        try db.execute("DELETE FROM crewMembers WHERE crewID = ? AND userID = ?", [crewID, userID])
        if role.isMember {
            try db.execute("UPDATE crews SET memberCount = memberCount - 1 WHERE id = ?", [crewID])
        }
    }
}
