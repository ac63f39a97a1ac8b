import Foundation
import GRDB
import Synchronization
import Testing
@testable import Storage

/// The session and the feeds are read on connections of our own (`ReadConnections`); these
/// tests read a file database the way the server does.
@Suite struct ReadConnectionsTests {
    private func temporaryDatabase() throws -> AppDatabase {
        try AppDatabase.open(directory: NSTemporaryDirectory() + "moim-read-\(UUID().uuidString)")
    }

    @Test func aFileDatabaseReadsWhatWasJustWrittenFromManyThreads() throws {
        let database = try temporaryDatabase()
        defer { try? database.close() }
        let mina = try database.accounts.createUser(User(username: "mina", email: "mina@example.com", passwordHash: "x", displayName: "Mina"))
        let token = Data(repeating: 7, count: 32)
        _ = try database.sessions.createSession(userID: mina.storedID, tokenHash: token, csrfToken: "csrf")
        let lifetime = SessionLifetime()
        #expect(try database.sessions.session(tokenHash: token, lifetime: lifetime)?.user.username == "mina")
        #expect(try database.sessions.session(tokenHash: Data(repeating: 8, count: 32), lifetime: lifetime) == nil)

        // Each thread writes a post and must see it at once in the feed, read on another connection.
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 8) { number in
            do {
                let post = try database.posts.createPost(
                    authorID: mina.storedID, content: PostContent(body: "run \(number)", bodyHTML: "<p>run \(number)</p>", tags: [], mentionedUserIDs: []),
                    photos: [])
                let item = try database.feed.feedItem(postID: post.storedID, viewerID: nil)
                if item?.post.body != "run \(number)" || item?.author.username != "mina" { failures.withLock { $0 += 1 } }
                _ = try database.sessions.session(tokenHash: token, lifetime: lifetime)
            } catch {
                failures.withLock { $0 += 1 }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        #expect(try database.feed.publicFeed(before: nil, viewerID: nil).items.count == 8)
    }

    /// A session is kept between writes: any write of this process shows on the next read
    /// (a sign-out, a notification), and one made by another process within a second.
    @Test func aKeptSessionGoesWithTheNextWriteOrWithinASecond() throws {
        let directory = NSTemporaryDirectory() + "moim-read-\(UUID().uuidString)"
        let database = try AppDatabase.open(directory: directory)
        defer { try? database.close() }
        let mina = try database.accounts.createUser(User(username: "mina", email: "mina@example.com", passwordHash: "x", displayName: "Mina"))
        let jun = try database.accounts.createUser(User(username: "jun", email: "jun@example.com", passwordHash: "x", displayName: "Jun"))
        let token = Data(repeating: 7, count: 32)
        let session = try database.sessions.createSession(userID: mina.storedID, tokenHash: token, csrfToken: "csrf")
        let lifetime = SessionLifetime()
        #expect(try database.sessions.session(tokenHash: token, lifetime: lifetime)?.notices.unreadNotifications == 0)

        // Jun follows Mina, which notifies her: her next page counts it.
        try database.profiles.follow(followerID: jun.storedID, followeeID: mina.storedID)
        #expect(try database.sessions.session(tokenHash: token, lifetime: lifetime)?.notices.unreadNotifications == 1)

        // Another process on the same file (a `moim` command) signs her out: seen within a second.
        let other = try AppDatabase.open(directory: directory)
        defer { try? other.close() }
        #expect(try database.sessions.session(tokenHash: token, lifetime: lifetime) != nil)
        try other.sessions.deleteSession(id: session.storedID)
        usleep(1_100_000)
        #expect(try database.sessions.session(tokenHash: token, lifetime: lifetime) == nil)
    }

    @Test func storedDatesReadWithoutACalendarMatchGRDB() throws {
        let queue = try DatabaseQueue()
        var generator = SystemRandomNumberGenerator()
        // Every day of four years around a leap day, and random milliseconds over four centuries.
        let days = (0..<(4 * 366)).map { Date(timeIntervalSince1970: 1_577_836_800 + Double($0) * 86_400 + 0.125) }
        // Around the reference date (2001-01-01), where the order of the sums decides the last bit.
        let nearReference = (0..<4_000).map { Date(timeIntervalSinceReferenceDate: Double($0 - 2_000) * 3_613.007) }
        let instants = (0..<2_000).map { _ in
            Date(timeIntervalSince1970: Double(Int64.random(in: -6_000_000_000_000...7_000_000_000_000, using: &generator)) / 1_000)
        }
        try queue.read { db in
            let connection = SQLConnection(try SQLiteConnection(borrowing: db))
            for date in days + nearReference + instants {
                let stored = try #require(try String.fetchOne(db, sql: "SELECT ?", arguments: [date]))
                let expected = try #require(try Date.fetchOne(db, sql: "SELECT ?", arguments: [stored]))
                let read = try connection.fetchOne("SELECT ?", [stored]) { try $0.date(atIndex: 0) }
                #expect(read == expected, "\(stored)")
            }
        }
    }

    @Test func malformedStoredValuesAreErrorsNotTraps() throws {
        let queue = try DatabaseQueue()
        try queue.read { db in
            let connection = SQLConnection(try SQLiteConnection(borrowing: db))
            // Not exactly the storage format: read as GRDB reads it (leniently), or an error.
            for text in ["2026-11-24 09:30", "2026-02-30 10:00:00.000", "2026-13-01 10:00:00.000", "2026-11-24 24:00:00.000"] {
                let expected = try #require(Date.fromDatabaseValue(text.databaseValue))
                #expect(try connection.fetchOne("SELECT ?", [text]) { try $0.date(atIndex: 0) } == expected)
            }
            for text in ["2026-1a-24 10:00:00.000", "x", ""] {
                #expect(throws: (any Error).self, "\(text)") { try connection.fetchOne("SELECT ?", [text]) { try $0.date(atIndex: 0) } }
            }
            #expect(throws: (any Error).self) { try connection.fetchOne("SELECT NULL") { try $0.decode(atIndex: 0) as Int64 } }
            #expect(throws: (any Error).self) { try connection.fetchOne("SELECT 1") { try $0.decode(atIndex: 5) as Int64 } }
            #expect(try connection.fetchOne("SELECT NULL") { try $0.decode(atIndex: 0) as Int64? } == .some(nil))
            #expect(throws: (any Error).self) { try connection.fetchOne("SELECT * FROM missing") { _ in 0 } }
        }
    }

    @Test func everyPageCountsOnlyTheUnreadRows() throws {
        // Given a member with read and unread notifications and warnings
        let database = try temporaryDatabase()
        defer { try? database.close() }
        let user = { (name: String, role: User.Role) in
            try database.accounts.createUser(User(username: name, email: name + "@example.com", passwordHash: "x", displayName: name, role: role))
        }
        let mina = try user("mina", .member), jun = try user("jun", .member), hana = try user("hana", .member), staff = try user("staff", .admin)
        try database.profiles.follow(followerID: jun.storedID, followeeID: mina.storedID)
        try database.feed.markNotificationsRead(userID: mina.storedID, shown: 1...Int64.max)
        try database.profiles.follow(followerID: hana.storedID, followeeID: mina.storedID)
        for reason in ["first", "second"] {
            try database.moderation.sanction(.warn, userID: mina.storedID, by: staff.storedID, until: nil, reason: reason)
        }
        try database.moderation.acknowledgeWarnings(userID: mina.storedID)
        try database.moderation.sanction(.warn, userID: mina.storedID, by: staff.storedID, until: nil, reason: "third")
        let token = Data(repeating: 9, count: 32)
        _ = try database.sessions.createSession(userID: mina.storedID, tokenHash: token, csrfToken: "csrf")

        // Then her pages count one notification and show one warning
        let notices = try #require(try database.sessions.session(tokenHash: token, lifetime: SessionLifetime())).notices
        #expect(notices.unreadNotifications == 1 && notices.warnings == ["third"])
        // And the counts read indexes of unread rows, not every row she ever had (or everyone's warnings)
        let plan = { (sql: String) in
            try database.readRows { try $0.fetchAll("EXPLAIN QUERY PLAN " + sql, [mina.storedID]) { try $0.decode(atIndex: 3) as String } }
        }
        #expect(try plan("SELECT count(*) FROM notifications WHERE userID = ? AND readAt IS NULL") == ["SEARCH notifications USING INDEX notifications_unread (userID=?)"])
        #expect(try plan("SELECT reason FROM warnings WHERE userID = ? AND readAt IS NULL ORDER BY id") == ["SEARCH warnings USING INDEX warnings_unread (userID=?)"])
    }
}
