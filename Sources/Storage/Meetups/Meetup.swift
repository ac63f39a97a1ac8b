import Foundation

/// A run (or walk, or game) people sign up for.
public struct Meetup: Codable, Sendable, Equatable, StoredRecord {
    public enum TimeSlot: String, Codable, Sendable, CaseIterable {
        case beforeWork, afterWork, weekend

        /// The slot of a meetup that starts at `start`, on the clock of `timeZone`: Saturday and
        /// Sunday are the weekend; a weekday before noon is before work, from noon after it.
        public init(startingAt start: Date, in timeZone: TimeZone) {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            let parts = calendar.dateComponents([.weekday, .hour], from: start)
            if parts.weekday == 1 || parts.weekday == 7 {
                self = .weekend
            } else {
                self = (parts.hour ?? 0) < 12 ? .beforeWork : .afterWork
            }
        }
    }
    public enum Pace: String, Codable, Sendable, CaseIterable { case beginner, average, fast, elite }
    public enum Style: String, Codable, Sendable, CaseIterable { case walk, jog, run, interval }
    public enum SignupMode: String, Codable, Sendable, CaseIterable { case firstCome, approval, lottery }
    public enum GenderRule: String, Codable, Sendable, CaseIterable { case any, female, male }
    /// A meetup is of one of the sports a crew can be of, which decides the details it has.
    public typealias Sport = Crew.Sport
    /// A basketball game's level and format.
    public enum Level: String, Codable, Sendable, CaseIterable { case beginner, intermediate, advanced }
    public enum GameFormat: String, Codable, Sendable, CaseIterable { case threeOnThree, fiveOnFive, practice }
    /// A hike's difficulty.
    public enum Difficulty: String, Codable, Sendable, CaseIterable { case easy, moderate, hard }
    /// A ride's speed group: under 20 km/h, 20–25, 25–30, over 30.
    public enum SpeedGroup: String, Codable, Sendable, CaseIterable { case casual, steady, fast, race }

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
    /// When the host called it off, and why (told to everyone going or waiting).
    public var cancelledAt: Date? = nil
    public var cancelReason: String = ""
    /// Its sport, and that sport's details (nil for the others'; `pace` and `style` count
    /// only for running and trail).
    public var sport: Sport = .running
    public var level: Level? = nil
    public var gameFormat: GameFormat? = nil
    public var ascentMeters: Int? = nil
    public var difficulty: Difficulty? = nil
    public var speedGroup: SpeedGroup? = nil

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

    /// Closed or called off by the host, or past its deadline or start.
    public func isClosed(at now: Date) -> Bool {
        closedAt != nil || cancelledAt != nil || now >= deadline || now >= startsAt
    }

    public var isCancelled: Bool { cancelledAt != nil }

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
    enum Columns: Int, SQLColumn {
        case id, hostID, crewID, crewOnly, title, description, descriptionHTML, startsAt, durationMinutes, placeName, address, latitude, longitude, placeNote, region, timeSlot, distanceKm, pace, style, capacity, signupMode, deadline, afterParty, genderRule, minAge, maxAge, jobs, acceptedCount, closedAt, sequence, createdAt, updatedAt, hiddenAt, lotterySeed, lotteryCommitment, drawnAt, lotteryResult, checkinCode, workplaceOnly, cancelledAt, cancelReason, sport, level, gameFormat, ascentMeters, difficulty, speedGroup
    }

    static let selection = SQLSelection(Columns.self, table: "meetups")


    init(row: some PositionalRow, startingAt offset: Int) throws {
        let column = try row.columns(of: Self.self, from: offset)
        id = try column(.id)
        hostID = try column(.hostID)
        crewID = try column(.crewID)
        crewOnly = try column(.crewOnly)
        title = try column(.title)
        description = try column(.description)
        descriptionHTML = try column(.descriptionHTML)
        startsAt = try column(.startsAt)
        durationMinutes = try column(.durationMinutes)
        placeName = try column(.placeName)
        address = try column(.address)
        latitude = try column(.latitude)
        longitude = try column(.longitude)
        placeNote = try column(.placeNote)
        region = try column(.region)
        timeSlot = try column(.timeSlot)
        distanceKm = try column(.distanceKm)
        pace = try column(.pace)
        style = try column(.style)
        capacity = try column(.capacity)
        signupMode = try column(.signupMode)
        deadline = try column(.deadline)
        afterParty = try column(.afterParty)
        genderRule = try column(.genderRule)
        minAge = try column(.minAge)
        maxAge = try column(.maxAge)
        jobs = try column(.jobs)
        acceptedCount = try column(.acceptedCount)
        closedAt = try column(.closedAt)
        sequence = try column(.sequence)
        createdAt = try column(.createdAt)
        updatedAt = try column(.updatedAt)
        hiddenAt = try column(.hiddenAt)
        lotterySeed = try column(.lotterySeed)
        lotteryCommitment = try column(.lotteryCommitment)
        drawnAt = try column(.drawnAt)
        lotteryResult = try column(.lotteryResult)
        checkinCode = try column(.checkinCode)
        workplaceOnly = try column(.workplaceOnly)
        cancelledAt = try column(.cancelledAt)
        cancelReason = try column(.cancelReason)
        sport = try column(.sport)
        level = try column(.level)
        gameFormat = try column(.gameFormat)
        ascentMeters = try column(.ascentMeters)
        difficulty = try column(.difficulty)
        speedGroup = try column(.speedGroup)
    }

    func stored(_ column: Columns) -> (any SQLBindable)? {
        switch column {
        case .id: id
        case .hostID: hostID
        case .crewID: crewID
        case .crewOnly: crewOnly
        case .title: title
        case .description: description
        case .descriptionHTML: descriptionHTML
        case .startsAt: startsAt
        case .durationMinutes: durationMinutes
        case .placeName: placeName
        case .address: address
        case .latitude: latitude
        case .longitude: longitude
        case .placeNote: placeNote
        case .region: region
        case .timeSlot: timeSlot.rawValue
        case .distanceKm: distanceKm
        case .pace: pace.rawValue
        case .style: style.rawValue
        case .capacity: capacity
        case .signupMode: signupMode.rawValue
        case .deadline: deadline
        case .afterParty: afterParty
        case .genderRule: genderRule.rawValue
        case .minAge: minAge
        case .maxAge: maxAge
        case .jobs: jobs
        case .acceptedCount: acceptedCount
        case .closedAt: closedAt
        case .sequence: sequence
        case .createdAt: createdAt
        case .updatedAt: updatedAt
        case .hiddenAt: hiddenAt
        case .lotterySeed: lotterySeed
        case .lotteryCommitment: lotteryCommitment
        case .drawnAt: drawnAt
        case .lotteryResult: lotteryResult
        case .checkinCode: checkinCode
        case .workplaceOnly: workplaceOnly
        case .cancelledAt: cancelledAt
        case .cancelReason: cancelReason
        case .sport: sport.rawValue
        case .level: level?.rawValue
        case .gameFormat: gameFormat?.rawValue
        case .ascentMeters: ascentMeters
        case .difficulty: difficulty?.rawValue
        case .speedGroup: speedGroup?.rawValue
        }
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
    enum Columns: Int, SQLColumn {
        case id, meetupID, position, label, capacity, leaderID, acceptedCount
    }

    static let selection = SQLSelection(Columns.self, table: "meetupGroups")

    init(row: some PositionalRow, startingAt offset: Int) throws {
        let column = try row.columns(of: Self.self, from: offset)
        id = try column(.id)
        meetupID = try column(.meetupID)
        position = try column(.position)
        label = try column(.label)
        capacity = try column(.capacity)
        leaderID = try column(.leaderID)
        acceptedCount = try column(.acceptedCount)
    }

    func stored(_ column: Columns) -> (any SQLBindable)? {
        switch column {
        case .id: id
        case .meetupID: meetupID
        case .position: position
        case .label: label
        case .capacity: capacity
        case .leaderID: leaderID
        case .acceptedCount: acceptedCount
        }
    }
}
