import Foundation

/// A crew: a running club, a basketball team, a hiking group.
public struct Crew: Codable, Sendable, Equatable, StoredRecord {
    public enum Sport: String, Codable, Sendable, CaseIterable {
        case running, trail, cycling, basketball, hiking, other

        /// A meetup of it has a pace and a style (running on roads and trails).
        public var hasPace: Bool { self == .running || self == .trail }
        /// A meetup of it covers a distance (a basketball game does not).
        public var hasDistance: Bool { self != .basketball }
    }

    public enum JoinPolicy: String, Codable, Sendable, CaseIterable {
        /// Anyone joins at once.
        case open
        /// A request that staff accept or reject.
        case approval
        /// Only with the crew's current invite code.
        case invite
    }

    public enum FeePeriod: String, Codable, Sendable, CaseIterable {
        case once, month, year
    }

    public var id: Int64?
    public var slug: String
    public var name: String
    public var sport: Sport
    public var region: String?
    public var description: String
    public var descriptionHTML: String
    public var coverFileName: String?
    public var coverWidth: Int?
    public var coverHeight: Int?
    public var meetingTime: String
    public var meetingPlace: String
    public var feeAmount: Int
    public var feeCurrency: String
    public var feePeriod: FeePeriod
    public var joinPolicy: JoinPolicy
    public var inviteCode: String?
    public var memberCap: Int?
    public var memberCount: Int
    public var createdAt: Date
    public var lastActivityAt: Date
    public var hiddenAt: Date?
    /// The cover's mean colour, 0xRRGGBB.
    public var coverTone: Int?
    /// Days after joining within which a member who leaves gets the join fee back (0: never).
    public var refundDays: Int = 0
    /// The widths at which the cover's JPEG stands in for its WebP (`ProcessedImage.jpegWidths`).
    public var coverJPEGWidths: [Int] = []

    public static let databaseTableName = "crews"

    public var isFull: Bool { memberCap.map { memberCount >= $0 } ?? false }
}

// Decoded by hand, by position (see `PositionalRow.checkColumns`): `Codable` rows cost a dictionary of
// column names per row, most of a list page's time.
extension Crew: SQLRecord {
    /// The columns `init(row:)` reads, in its order (queries select `selection`).
    enum Columns: Int, SQLColumn {
        case id, slug, name, sport, region, description, descriptionHTML, coverFileName, coverWidth, coverHeight, meetingTime, meetingPlace, feeAmount, feeCurrency, feePeriod, joinPolicy, inviteCode, memberCap, memberCount, createdAt, lastActivityAt, hiddenAt, coverTone, refundDays, coverJPEGWidths
    }

    static let selection = SQLSelection(Columns.self, table: "crews")


    init(row: some PositionalRow, startingAt offset: Int) throws {
        let column = try row.columns(of: Self.self, from: offset)
        id = try column(.id)
        slug = try column(.slug)
        name = try column(.name)
        sport = try column(.sport)
        region = try column(.region)
        description = try column(.description)
        descriptionHTML = try column(.descriptionHTML)
        coverFileName = try column(.coverFileName)
        coverWidth = try column(.coverWidth)
        coverHeight = try column(.coverHeight)
        meetingTime = try column(.meetingTime)
        meetingPlace = try column(.meetingPlace)
        feeAmount = try column(.feeAmount)
        feeCurrency = try column(.feeCurrency)
        feePeriod = try column(.feePeriod)
        joinPolicy = try column(.joinPolicy)
        inviteCode = try column(.inviteCode)
        memberCap = try column(.memberCap)
        memberCount = try column(.memberCount)
        createdAt = try column(.createdAt)
        lastActivityAt = try column(.lastActivityAt)
        hiddenAt = try column(.hiddenAt)
        coverTone = try column(.coverTone)
        refundDays = try column(.refundDays)
        coverJPEGWidths = WidthList.widths(try column(.coverJPEGWidths))
    }

    func stored(_ column: Columns) -> (any SQLBindable)? {
        switch column {
        case .id: id
        case .slug: slug
        case .name: name
        case .sport: sport.rawValue
        case .region: region
        case .description: description
        case .descriptionHTML: descriptionHTML
        case .coverFileName: coverFileName
        case .coverWidth: coverWidth
        case .coverHeight: coverHeight
        case .meetingTime: meetingTime
        case .meetingPlace: meetingPlace
        case .feeAmount: feeAmount
        case .feeCurrency: feeCurrency
        case .feePeriod: feePeriod.rawValue
        case .joinPolicy: joinPolicy.rawValue
        case .inviteCode: inviteCode
        case .memberCap: memberCap
        case .memberCount: memberCount
        case .createdAt: createdAt
        case .lastActivityAt: lastActivityAt
        case .hiddenAt: hiddenAt
        case .coverTone: coverTone
        case .refundDays: refundDays
        case .coverJPEGWidths: WidthList.text(coverJPEGWidths)
        }
    }
}

/// What a crew's form edits.
public struct CrewFields: Sendable {
    public var slug: String
    public var name: String
    public var sport: Crew.Sport
    public var region: String?
    public var description: String
    public var descriptionHTML: String
    public var meetingTime: String
    public var meetingPlace: String
    public var feeAmount: Int
    public var feeCurrency: String
    public var feePeriod: Crew.FeePeriod
    public var joinPolicy: Crew.JoinPolicy
    public var memberCap: Int?
    public var refundDays: Int

    public init(slug: String, name: String, sport: Crew.Sport, region: String?, description: String, descriptionHTML: String,
                meetingTime: String, meetingPlace: String, feeAmount: Int, feeCurrency: String, feePeriod: Crew.FeePeriod,
                joinPolicy: Crew.JoinPolicy, memberCap: Int?, refundDays: Int = 0) {
        self.slug = slug
        self.name = name
        self.sport = sport
        self.region = region
        self.description = description
        self.descriptionHTML = descriptionHTML
        self.meetingTime = meetingTime
        self.meetingPlace = meetingPlace
        self.feeAmount = feeAmount
        self.feeCurrency = feeCurrency
        self.feePeriod = feePeriod
        self.joinPolicy = joinPolicy
        self.memberCap = memberCap
        self.refundDays = refundDays
    }
}

/// A member's place in a crew. `pending` is a join request waiting for staff.
public enum CrewRole: String, Codable, Sendable {
    case owner, staff, member, pending

    /// Owner and staff run the crew: requests, dues, moderation, removals.
    public var isStaff: Bool { self == .owner || self == .staff }
    public var isMember: Bool { self != .pending }
}

/// A member as the members tab lists them.
public struct CrewMember: Sendable, Equatable {
    public var user: User
    public var role: CrewRole
    public var joinedAt: Date
}
