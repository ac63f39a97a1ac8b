import Foundation
import Testing
@testable import Storage

/// The replica itself (a paused standby, the own-write rule, the lag bound) is also tried
/// through a real server by `Tests/Faults/replica_check.py` in `Tests/Faults/failover`.
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
