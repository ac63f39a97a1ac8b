import Foundation

/// A member account. `passwordHash` is an Argon2id string; the password itself is never stored.
public struct User: Codable, Sendable, Equatable {
    public enum Role: String, Codable, Sendable, CaseIterable {
        case member, moderator, admin
    }

    public var id: Int64?
    public var username: String
    public var email: String
    public var passwordHash: String
    public var displayName: String
    public var bio: String
    public var gender: String?
    public var birthYear: Int?
    public var job: String?
    public var region: String?
    public var language: String?
    public var role: Role
    public var createdAt: Date
    /// Names the member's private calendar feed; made on first use.
    public var calendarToken: String?
    /// Until then the member cannot sign in (`distantFuture` for ever).
    public var suspendedUntil: Date?
    /// Until then the member can read but not post.
    public var silencedUntil: Date?
    /// Why, shown to them.
    public var sanctionReason: String
    /// `km` or `mi`, for paces and distances.
    public var units: String
    /// Shows this month's distance on their crews' leaderboards.
    public var onLeaderboard: Bool
    /// The domain of the work address they proved they read (`example.co.kr`), and when;
    /// see `verifiedWorkplace(at:)`.
    public var workplaceDomain: String?
    public var workplaceVerifiedAt: Date?
    /// SHA-256 of that address: one address vouches for one member.
    var workplaceAddressHash: Data?

    public static let databaseTableName = "users"

    public init(
        username: String, email: String, passwordHash: String, displayName: String,
        bio: String = "", gender: String? = nil, birthYear: Int? = nil, job: String? = nil,
        region: String? = nil, language: String? = nil, role: Role = .member, createdAt: Date = Date()
    ) {
        self.username = username
        self.email = email
        self.passwordHash = passwordHash
        self.displayName = displayName
        self.bio = bio
        self.gender = gender
        self.birthYear = birthYear
        self.job = job
        self.region = region
        self.language = language
        self.role = role
        self.createdAt = createdAt
        self.calendarToken = nil
        self.suspendedUntil = nil
        self.silencedUntil = nil
        self.sanctionReason = ""
        self.units = "km"
        self.onLeaderboard = false
        self.workplaceDomain = nil
        self.workplaceVerifiedAt = nil
        self.workplaceAddressHash = nil
    }

    public func isSuspended(at now: Date = Date()) -> Bool { suspendedUntil.map { $0 > now } ?? false }
    public func isSilenced(at now: Date = Date()) -> Bool { silencedUntil.map { $0 > now } ?? false }
    public var isStaff: Bool { role != .member }

    /// A verification holds for a year; verifying again renews it.
    public static let workplaceLifetime: TimeInterval = 365 * 24 * 3_600

    /// The domain of their workplace while its verification holds, else nil.
    public func verifiedWorkplace(at now: Date = Date()) -> String? {
        guard let workplaceDomain, let expiry = workplaceExpiry, expiry > now else { return nil }
        return workplaceDomain
    }

    /// When the workplace badge lapses unless renewed.
    public var workplaceExpiry: Date? { workplaceVerifiedAt?.addingTimeInterval(Self.workplaceLifetime) }

}

/// The profile fields a member edits in settings.
public struct ProfileChanges: Sendable {
    public var displayName: String
    public var bio: String
    public var gender: String?
    public var birthYear: Int?
    public var job: String?
    public var region: String?
    public var language: String?

    public init(displayName: String, bio: String, gender: String?, birthYear: Int?, job: String?, region: String?, language: String?) {
        self.displayName = displayName
        self.bio = bio
        self.gender = gender
        self.birthYear = birthYear
        self.job = job
        self.region = region
        self.language = language
    }
}

extension User: SQLRecord {
    /// Decoded by hand, as `Post` is.
    /// The columns `init(row:)` reads, in its order (queries select `selection`).
    static let columns = ["id", "username", "email", "passwordHash", "displayName", "bio", "gender", "birthYear", "job", "region", "language", "role", "createdAt", "calendarToken", "suspendedUntil", "silencedUntil", "sanctionReason", "units", "onLeaderboard",
                          "workplaceDomain", "workplaceVerifiedAt", "workplaceAddressHash"]
    static let selection = SQLSelection(columns, table: "users")


    var columnValues: [(any SQLBindable)?] {
        [username, email, passwordHash, displayName, bio, gender, birthYear, job, region, language, role.rawValue, createdAt,
         calendarToken, suspendedUntil, silencedUntil, sanctionReason, units, onLeaderboard,
         workplaceDomain, workplaceVerifiedAt, workplaceAddressHash]
    }

    /// Reads the columns from `offset` on, where a joined row holds them after another table's.
    init(row: some PositionalRow, startingAt offset: Int) throws {
        try row.checkColumns(Self.columns, from: offset)
        id = try row.decode(atIndex: offset)
        username = try row.decode(atIndex: offset + 1)
        email = try row.decode(atIndex: offset + 2)
        passwordHash = try row.decode(atIndex: offset + 3)
        displayName = try row.decode(atIndex: offset + 4)
        bio = try row.decode(atIndex: offset + 5)
        gender = try row.decode(atIndex: offset + 6)
        birthYear = try row.decode(atIndex: offset + 7)
        job = try row.decode(atIndex: offset + 8)
        region = try row.decode(atIndex: offset + 9)
        language = try row.decode(atIndex: offset + 10)
        let role: String = try row.decode(atIndex: offset + 11)
        guard let known = Role(rawValue: role) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [CodingKeys.role], debugDescription: "unknown role \(role)"))
        }
        self.role = known
        createdAt = try row.date(atIndex: offset + 12)
        calendarToken = try row.decode(atIndex: offset + 13)
        suspendedUntil = try row.optionalDate(atIndex: offset + 14)
        silencedUntil = try row.optionalDate(atIndex: offset + 15)
        sanctionReason = try row.decode(atIndex: offset + 16)
        units = try row.decode(atIndex: offset + 17)
        onLeaderboard = try row.decode(atIndex: offset + 18)
        workplaceDomain = try row.decode(atIndex: offset + 19)
        workplaceVerifiedAt = try row.optionalDate(atIndex: offset + 20)
        workplaceAddressHash = try row.decode(atIndex: offset + 21)
    }
}
