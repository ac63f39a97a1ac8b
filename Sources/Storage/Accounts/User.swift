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
    /// The versions of the terms and the privacy policy they last agreed to (0: none yet).
    public var termsVersion: Int
    public var privacyVersion: Int
    /// Since when they take news and offers by mail; nil for no.
    public var marketingSince: Date?
    /// Set on the one deleted-member account, under which what deleted members leave stays.
    public var deletedAt: Date?

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
        self.termsVersion = 0
        self.privacyVersion = 0
        self.marketingSince = nil
        self.deletedAt = nil
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
    enum Columns: Int, SQLColumn {
        case id, username, email, passwordHash, displayName, bio, gender, birthYear, job, region, language, role, createdAt, calendarToken, suspendedUntil, silencedUntil, sanctionReason, units, onLeaderboard, workplaceDomain, workplaceVerifiedAt, workplaceAddressHash,
            termsVersion, privacyVersion, marketingSince, deletedAt
    }

    static let selection = SQLSelection(Columns.self, table: "users")


    func stored(_ column: Columns) -> (any SQLBindable)? {
        switch column {
        case .id: id
        case .username: username
        case .email: email
        case .passwordHash: passwordHash
        case .displayName: displayName
        case .bio: bio
        case .gender: gender
        case .birthYear: birthYear
        case .job: job
        case .region: region
        case .language: language
        case .role: role.rawValue
        case .createdAt: createdAt
        case .calendarToken: calendarToken
        case .suspendedUntil: suspendedUntil
        case .silencedUntil: silencedUntil
        case .sanctionReason: sanctionReason
        case .units: units
        case .onLeaderboard: onLeaderboard
        case .workplaceDomain: workplaceDomain
        case .workplaceVerifiedAt: workplaceVerifiedAt
        case .workplaceAddressHash: workplaceAddressHash
        case .termsVersion: termsVersion
        case .privacyVersion: privacyVersion
        case .marketingSince: marketingSince
        case .deletedAt: deletedAt
        }
    }

    /// Reads the columns from `offset` on, where a joined row holds them after another table's.
    init(row: some PositionalRow, startingAt offset: Int) throws {
        let column = try row.columns(of: Self.self, from: offset)
        id = try column(.id)
        username = try column(.username)
        email = try column(.email)
        passwordHash = try column(.passwordHash)
        displayName = try column(.displayName)
        bio = try column(.bio)
        gender = try column(.gender)
        birthYear = try column(.birthYear)
        job = try column(.job)
        region = try column(.region)
        language = try column(.language)
        let role: String = try column(.role)
        guard let known = Role(rawValue: role) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [CodingKeys.role], debugDescription: "unknown role \(role)"))
        }
        self.role = known
        createdAt = try column(.createdAt)
        calendarToken = try column(.calendarToken)
        suspendedUntil = try column(.suspendedUntil)
        silencedUntil = try column(.silencedUntil)
        sanctionReason = try column(.sanctionReason)
        units = try column(.units)
        onLeaderboard = try column(.onLeaderboard)
        workplaceDomain = try column(.workplaceDomain)
        workplaceVerifiedAt = try column(.workplaceVerifiedAt)
        workplaceAddressHash = try column(.workplaceAddressHash)
        termsVersion = try column(.termsVersion)
        privacyVersion = try column(.privacyVersion)
        marketingSince = try column(.marketingSince)
        deletedAt = try column(.deletedAt)
    }
}
