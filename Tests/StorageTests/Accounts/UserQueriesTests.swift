import Foundation
import Testing
import TestSupport
@testable import Storage

@Suite struct UserQueriesTests {
    private func user(_ name: String, email: String? = nil) -> User {
        User(username: name, email: email ?? "\(name)@example.com", passwordHash: "$argon2id$x", displayName: name)
    }

    @Test func usernamesAndEmailsAreUniqueIgnoringCase() throws {
        let database = try TestDatabase.fresh()
        _ = try database.accounts.createUser(user("mina"))
        #expect(throws: StorageError.usernameTaken) { try database.accounts.createUser(user("MINA", email: "x@example.com")) }
        #expect(throws: StorageError.emailTaken) { try database.accounts.createUser(user("other", email: "MINA@EXAMPLE.COM")) }
        #expect(try database.accounts.user(username: "Mina")?.username == "mina")
        #expect(try database.accounts.user(login: "MINA@example.com")?.username == "mina")
    }

    @Test func theSchemaRefusesWhatTheFormsWouldNeverSend() throws {
        let database = try TestDatabase.fresh()
        #expect(throws: StorageError.rejected) { try database.accounts.createUser(user("Upper")) }
        #expect(throws: StorageError.rejected) { try database.accounts.createUser(user("no spaces")) }
        var badRole = user("roley")
        badRole.gender = "robot"
        #expect(throws: StorageError.rejected) { try database.accounts.createUser(badRole) }
        #expect(try database.accounts.userCount() == 0)
    }

    @Test func changingThePasswordEndsOtherSessions() throws {
        let database = try TestDatabase.fresh()
        let mina = try database.accounts.createUser(user("mina"))
        let kept = try database.sessions.createSession(userID: mina.id!, tokenHash: Data(repeating: 1, count: 32), csrfToken: "a")
        _ = try database.sessions.createSession(userID: mina.id!, tokenHash: Data(repeating: 2, count: 32), csrfToken: "b")
        try database.accounts.changePassword(userID: mina.id!, passwordHash: "$argon2id$y", keepingSession: kept.id)
        #expect(try database.sessions.sessionCount(userID: mina.id!) == 1)
        #expect(try database.accounts.user(id: mina.id!)?.passwordHash == "$argon2id$y")
    }

    @Test func grantingARoleEndsTheUsersSessions() throws {
        let database = try TestDatabase.fresh()
        let mina = try database.accounts.createUser(user("mina"))
        _ = try database.sessions.createSession(userID: mina.id!, tokenHash: Data(repeating: 1, count: 32), csrfToken: "a")
        let admin = try database.accounts.setRole(.admin, username: "MINA")
        #expect(admin.role == .admin)
        #expect(try database.sessions.sessionCount(userID: mina.id!) == 0)
        #expect(throws: StorageError.notFound) { try database.accounts.setRole(.admin, username: "ghost") }
    }

    @Test func sessionsExpireWhenIdleOrTooOld() throws {
        let database = try TestDatabase.fresh()
        let mina = try database.accounts.createUser(user("mina"))
        let hash = Data(repeating: 7, count: 32)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        _ = try database.sessions.createSession(userID: mina.id!, tokenHash: hash, csrfToken: "a", now: start)
        let lifetime = SessionLifetime()
        #expect(try database.sessions.session(tokenHash: hash, lifetime: lifetime, now: start.addingTimeInterval(3600)) != nil)
        #expect(try database.sessions.session(tokenHash: hash, lifetime: lifetime, now: start.addingTimeInterval(lifetime.idle + 1)) == nil)
        #expect(try database.sessions.deleteExpiredSessions(lifetime: lifetime, now: start.addingTimeInterval(lifetime.idle + 1)) == 1)
    }

    @Test func theFileDatabaseUsesWALAndFullSync() throws {
        let directory = NSTemporaryDirectory() + "moim-db-\(UUID().uuidString)"
        let database = try AppDatabase.open(directory: directory)
        defer { try? database.close() }
        // The connection that writes: the readers open the file read-only.
        let (journal, synchronous, foreignKeys) = try database.write { db in
            (try db.value("PRAGMA journal_mode", as: String.self),
             try db.value("PRAGMA synchronous", as: Int.self),
             try db.value("PRAGMA foreign_keys", as: Int.self))
        }
        #expect(journal == "wal")
        #expect(synchronous == 2)
        #expect(foreignKeys == 1)
        #expect(try database.appliedMigrations().first == "v1 users and sessions")
    }
}
