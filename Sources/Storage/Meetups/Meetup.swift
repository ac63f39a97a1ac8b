import Foundation

/// A run (or walk, or game) people sign up for.
public struct Meetup: Codable, Sendable, Equatable, StoredRecord {
    public enum TimeSlot: String, Codable, Sendable, CaseIterable { case beforeWork, afterWork, weekend }
    public enum Pace: String, Codable, Sendable, CaseIterable { case beginner, average, fast, elite }
    public enum Style: String, Codable, Sendable, CaseIterable { case walk, jog, run, interval }
    public enum SignupMode: String, Codable, Sendable, CaseIterable { case firstCome, approval, lottery }
    public enum GenderRule: String, Codable, Sendable, CaseIterable { case any, female, male }

    public var id: Int64?
    public var hostID: Int64
    public var crewID: Int64?
    public var crewOnly: Bool
    public var title: String
    public var description: String
    public var descriptionHTML: String
    public var startsAt: Date
    public var durationMinutes: Int
    public var placeName: String
    public var address: String
    public var latitude: Double?
    public var longitude: Double?
    public var placeNote: String
    public var region: String?
    public var timeSlot: TimeSlot
    public var distanceKm: Double?
    public var pace: Pace
    public var style: Style
    public var capacity: Int
    public var signupMode: SignupMode
    public var deadline: Date
    public var afterParty: Bool
    public var genderRule: GenderRule
    public var minAge: Int?
    public var maxAge: Int?
    /// Job categories allowed, comma-separated; empty for everyone.
    public var jobs: String
    public var acceptedCount: Int
    public var closedAt: Date?
    /// Bumped on every edit, for calendar clients (RFC 5545 SEQUENCE).
    public var sequence: Int
    public var createdAt: Date
    public var updatedAt: Date
    /// Set when moderators hid the meetup.
    public var hiddenAt: Date? = nil
    /// A lottery's secret seed, revealed once drawn, and its SHA-256 (hex), shown from the start.
    public var lotterySeed: String? = nil
    public var lotteryCommitment: String? = nil
    public var drawnAt: Date? = nil
    /// The entrants' usernames in drawn order, comma-separated.
    public var lotteryResult: String? = nil
    /// The six digits people type to check themselves in (made when first shown).
    public var checkinCode: String? = nil
    /// Only members with a verified workplace may join (`User.verifiedWorkplace`).
    public var workplaceOnly: Bool = false

    public init(
        id: Int64?,
        hostID: Int64,
        crewID: Int64?,
        crewOnly: Bool,
        title: String,
        description: String,
        descriptionHTML: String,
        startsAt: Date,
        durationMinutes: Int,
        placeName: String,
        address: String,
        latitude: Double?,
        longitude: Double?,
        placeNote: String,
        region: String?,
        timeSlot: TimeSlot,
        distanceKm: Double?,
        pace: Pace,
        style: Style,
        capacity: Int,
        signupMode: SignupMode,
        deadline: Date,
        afterParty: Bool,
        genderRule: GenderRule,
        minAge: Int?,
        maxAge: Int?,
        jobs: String,
        acceptedCount: Int,
        closedAt: Date?,
        sequence: Int,
        createdAt: Date,
        updatedAt: Date
    ) {
        self.id = id
        self.hostID = hostID
        self.crewID = crewID
        self.crewOnly = crewOnly
        self.title = title
        self.description = description
        self.descriptionHTML = descriptionHTML
        self.startsAt = startsAt
        self.durationMinutes = durationMinutes
        self.placeName = placeName
        self.address = address
        self.latitude = latitude
        self.longitude = longitude
        self.placeNote = placeNote
        self.region = region
        self.timeSlot = timeSlot
        self.distanceKm = distanceKm
        self.pace = pace
        self.style = style
        self.capacity = capacity
        self.signupMode = signupMode
        self.deadline = deadline
        self.afterParty = afterParty
        self.genderRule = genderRule
        self.minAge = minAge
        self.maxAge = maxAge
        self.jobs = jobs
        self.acceptedCount = acceptedCount
        self.closedAt = closedAt
        self.sequence = sequence
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    public static let databaseTableName = "meetups"

    public var jobList: [String] { jobs.split(separator: ",").map(String.init) }

    /// Closed by the host, or past its deadline or start.
    public func isClosed(at now: Date) -> Bool {
        closedAt != nil || now >= deadline || now >= startsAt
    }

    public var endsAt: Date { startsAt.addingTimeInterval(Double(durationMinutes) * 60) }

    /// People check themselves in from 30 minutes before the start to an hour after it.
    public func isCheckInOpen(at now: Date) -> Bool {
        now >= startsAt.addingTimeInterval(-30 * 60) && now <= startsAt.addingTimeInterval(60 * 60)
    }

    /// Why `user` may not join, if they may not: each reason names the rule.
    public func ineligibility(of user: User, at now: Date) -> [Ineligibility] {
        var reasons: [Ineligibility] = []
        if genderRule != .any {
            if let gender = user.gender { if gender != genderRule.rawValue { reasons.append(.gender) } } else { reasons.append(.missingGender) }
        }
        if minAge != nil || maxAge != nil {
            if let birthYear = user.birthYear {
                let age = Calendar(identifier: .gregorian).component(.year, from: now) - birthYear
                if let minAge, age < minAge { reasons.append(.age) }
                if let maxAge, age > maxAge { reasons.append(.age) }
            } else {
                reasons.append(.missingBirthYear)
            }
        }
        if !jobList.isEmpty {
            if let job = user.job { if !jobList.contains(job) { reasons.append(.job) } } else { reasons.append(.missingJob) }
        }
        if workplaceOnly, user.verifiedWorkplace(at: now) == nil { reasons.append(.missingWorkplace) }
        return reasons
    }
}

// Decoded by hand, by position (see `PositionalRow.checkColumns`): `Codable` rows cost a dictionary of
// column names per row, most of a list page's time.
extension Meetup: SQLRecord {
    /// The columns `init(row:)` reads, in its order (queries select `selection`).
    static let columns = ["id", "hostID", "crewID", "crewOnly", "title", "description", "descriptionHTML", "startsAt", "durationMinutes", "placeName", "address", "latitude", "longitude", "placeNote", "region", "timeSlot", "distanceKm", "pace", "style", "capacity", "signupMode", "deadline", "afterParty", "genderRule", "minAge", "maxAge", "jobs", "acceptedCount", "closedAt", "sequence", "createdAt", "updatedAt", "hiddenAt", "lotterySeed", "lotteryCommitment", "drawnAt", "lotteryResult", "checkinCode", "workplaceOnly"]
    static let selection = SQLSelection(columns, table: "meetups")


    init(row: some PositionalRow, startingAt offset: Int) throws {
        try row.checkColumns(Self.columns, from: offset)
        id = try row.decode(atIndex: offset)
        hostID = try row.decode(atIndex: offset + 1)
        crewID = try row.decode(atIndex: offset + 2)
        crewOnly = try row.decode(atIndex: offset + 3)
        title = try row.decode(atIndex: offset + 4)
        description = try row.decode(atIndex: offset + 5)
        descriptionHTML = try row.decode(atIndex: offset + 6)
        startsAt = try row.date(atIndex: offset + 7)
        durationMinutes = try row.decode(atIndex: offset + 8)
        placeName = try row.decode(atIndex: offset + 9)
        address = try row.decode(atIndex: offset + 10)
        latitude = try row.decode(atIndex: offset + 11)
        longitude = try row.decode(atIndex: offset + 12)
        placeNote = try row.decode(atIndex: offset + 13)
        region = try row.decode(atIndex: offset + 14)
        timeSlot = try row.decodeRawValue(atIndex: offset + 15)
        distanceKm = try row.decode(atIndex: offset + 16)
        pace = try row.decodeRawValue(atIndex: offset + 17)
        style = try row.decodeRawValue(atIndex: offset + 18)
        capacity = try row.decode(atIndex: offset + 19)
        signupMode = try row.decodeRawValue(atIndex: offset + 20)
        deadline = try row.date(atIndex: offset + 21)
        afterParty = try row.decode(atIndex: offset + 22)
        genderRule = try row.decodeRawValue(atIndex: offset + 23)
        minAge = try row.decode(atIndex: offset + 24)
        maxAge = try row.decode(atIndex: offset + 25)
        jobs = try row.decode(atIndex: offset + 26)
        acceptedCount = try row.decode(atIndex: offset + 27)
        closedAt = try row.optionalDate(atIndex: offset + 28)
        sequence = try row.decode(atIndex: offset + 29)
        createdAt = try row.date(atIndex: offset + 30)
        updatedAt = try row.date(atIndex: offset + 31)
        hiddenAt = try row.optionalDate(atIndex: offset + 32)
        lotterySeed = try row.decode(atIndex: offset + 33)
        lotteryCommitment = try row.decode(atIndex: offset + 34)
        drawnAt = try row.optionalDate(atIndex: offset + 35)
        lotteryResult = try row.decode(atIndex: offset + 36)
        checkinCode = try row.decode(atIndex: offset + 37)
        workplaceOnly = try row.decode(atIndex: offset + 38)
    }

    var columnValues: [(any SQLBindable)?] {
        [hostID, crewID, crewOnly, title, description, descriptionHTML, startsAt, durationMinutes, placeName, address, latitude, longitude, placeNote, region, timeSlot.rawValue, distanceKm, pace.rawValue, style.rawValue, capacity, signupMode.rawValue, deadline, afterParty, genderRule.rawValue, minAge, maxAge, jobs, acceptedCount, closedAt, sequence, createdAt, updatedAt, hiddenAt, lotterySeed, lotteryCommitment, drawnAt, lotteryResult, checkinCode, workplaceOnly]
    }
}

/// A rule a member does not meet, or profile data the rule needs.
public enum Ineligibility: String, Sendable, Equatable {
    case gender, age, job
    case missingGender, missingBirthYear, missingJob
    /// The meetup is for verified office workers, and the member has no verified workplace.
    case missingWorkplace

    public var needsProfile: Bool { self != .gender && self != .age && self != .job }
}

/// Where an application stands.
public enum ApplicationStatus: String, Codable, Sendable {
    case accepted, pending, waitlisted, rejected, cancelled
}

/// A participant as the meetup page and attendance form list them.
public struct Participant: Sendable, Equatable {
    public var user: User
    public var status: ApplicationStatus
    public var attended: Bool?
    public var groupID: Int64? = nil
}

/// A pace group inside a meetup ("5:00 /km"), with its own capacity, leader and waitlist.
public struct PaceGroup: Codable, Sendable, Equatable, StoredRecord {
    public var id: Int64?
    public var meetupID: Int64
    public var position: Int
    public var label: String
    public var capacity: Int
    public var leaderID: Int64?
    public var acceptedCount: Int = 0

    public static let databaseTableName = "meetupGroups"

    public init(meetupID: Int64 = 0, position: Int = 0, label: String, capacity: Int, leaderID: Int64?) {
        self.meetupID = meetupID
        self.position = position
        self.label = label
        self.capacity = capacity
        self.leaderID = leaderID
    }
}

extension PaceGroup: SQLRecord {
    /// The columns `init(row:)` reads, in its order (queries select `selection`).
    static let columns = ["id", "meetupID", "position", "label", "capacity", "leaderID", "acceptedCount"]
    static let selection = SQLSelection(columns, table: "meetupGroups")

    init(row: some PositionalRow, startingAt offset: Int) throws {
        try row.checkColumns(Self.columns, from: offset)
        id = try row.decode(atIndex: offset)
        meetupID = try row.decode(atIndex: offset + 1)
        position = try row.decode(atIndex: offset + 2)
        label = try row.decode(atIndex: offset + 3)
        capacity = try row.decode(atIndex: offset + 4)
        leaderID = try row.decode(atIndex: offset + 5)
        acceptedCount = try row.decode(atIndex: offset + 6)
    }

    var columnValues: [(any SQLBindable)?] {
        [meetupID, position, label, capacity, leaderID, acceptedCount]
    }
}
