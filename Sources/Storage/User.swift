import Foundation
import GRDB

/// A member account. `passwordHash` is an Argon2id string; the password itself is never stored.
public struct User: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
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
    }

    public func isSuspended(at now: Date = Date()) -> Bool { suspendedUntil.map { $0 > now } ?? false }
    public func isSilenced(at now: Date = Date()) -> Bool { silencedUntil.map { $0 > now } ?? false }
    public var isStaff: Bool { role != .member }

    public enum Columns {
        static let id = Column(CodingKeys.id)
        static let username = Column(CodingKeys.username)
        static let email = Column(CodingKeys.email)
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
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

extension User {
    /// Decoded by hand, as `Post` is.
    public init(row: Row) throws {
        id = try row.decode(forColumn: "id")
        username = try row.decode(forColumn: "username")
        email = try row.decode(forColumn: "email")
        passwordHash = try row.decode(forColumn: "passwordHash")
        displayName = try row.decode(forColumn: "displayName")
        bio = try row.decode(forColumn: "bio")
        gender = try row.decode(forColumn: "gender")
        birthYear = try row.decode(forColumn: "birthYear")
        job = try row.decode(forColumn: "job")
        region = try row.decode(forColumn: "region")
        language = try row.decode(forColumn: "language")
        let role: String = try row.decode(forColumn: "role")
        guard let known = Role(rawValue: role) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [CodingKeys.role], debugDescription: "unknown role \(role)"))
        }
        self.role = known
        createdAt = try row.decode(forColumn: "createdAt")
        calendarToken = try row.decode(forColumn: "calendarToken")
        suspendedUntil = try row.decode(forColumn: "suspendedUntil")
        silencedUntil = try row.decode(forColumn: "silencedUntil")
        sanctionReason = try row.decode(forColumn: "sanctionReason")
        units = try row.decode(forColumn: "units")
        onLeaderboard = try row.decode(forColumn: "onLeaderboard")
    }
}
