import Foundation
import Testing
@testable import Storage

/// Log positions as PostgreSQL and a browser's cookie carry them. The replica itself (a paused
/// standby, the own-write rule, the lag bound) is tried through a real server by
/// `Tests/Faults/replica_check.py` in `Tests/Faults/failover`.
struct WALPositionTests {
    @Test func readsPostgreSQLsFormAndWritesItsOwn() {
        let position = WALPosition(postgres: "16/B374D848")
        #expect(position?.value == 0x16_B374_D848)
        #expect(position?.token == "16b374d848")
        #expect(WALPosition(token: "16B374D848") == position)
        #expect(WALPosition(postgres: "FFFFFFFF/FFFFFFFF")?.value == .max)
        #expect(WALPosition(postgres: "0/1")! < WALPosition(postgres: "1/0")!)
    }

    @Test(arguments: ["", "/", "1/", "/1", "1/2/3", "+1/0", "-1/0", "1 /0", "123456789/0", "0/123456789", "g/0", "0/٣", "0/1\0"])
    func refusesAnyOtherPostgreSQLText(_ text: String) {
        #expect(WALPosition(postgres: text) == nil)
    }

    @Test(arguments: ["", "+1", "-1", " 1", "1 ", "0x1", "12345678901234567", "ffff_ffff", "１"])
    func refusesAnyOtherCookie(_ text: String) {
        #expect(WALPosition(token: text) == nil)
    }
}

@Suite(.enabled(if: PostgresTestServer.url != nil, "needs MOIM_TEST_POSTGRES_URL (script/test starts a cluster)"))
struct ReplicaRoutingTests {
    @Test func aWriteInAScopeSaysWhereTheLogStoodAfterIt() throws {
        let url = try PostgresTestServer.freshDatabase()
        // The primary named as its own replica: it is not in recovery, so it takes no reads
        // as one, and every read still answers.
        let database = try AppDatabase.open(postgres: url, connections: 2, replicas: [url])
        defer { try? database.close() }
        let before = try #require(try PostgresConnection(url: url).text("SELECT pg_current_wal_lsn()::text").flatMap(WALPosition.init(postgres:)))
        let (_, wrote) = try database.scoped(replicaAllowed: true, mustSee: nil) {
            try database.security.recordRateEvent(key: "replica-test")
            return try database.security.rateEvents(key: "replica-test", since: .distantPast).count
        }
        let position = try #require(wrote)
        #expect(position > before)
        #expect(position.value != .max)
        let (read, none) = try database.scoped(replicaAllowed: true, mustSee: position) {
            try database.security.rateEvents(key: "replica-test", since: .distantPast).count
        }
        #expect(read == 1)
        #expect(none == nil)
        #expect(database.replicas?.pool(after: nil) == nil)
    }
}
