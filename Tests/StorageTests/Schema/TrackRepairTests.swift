import Formats
import Foundation
import GRDB
import Testing
@testable import Storage

@Suite struct TrackRepairTests {
    private func floats(_ values: [Float]) -> Data {
        var data = Data()
        for value in values { withUnsafeBytes(of: value.bitPattern.littleEndian) { data.append(contentsOf: $0) } }
        return data
    }

    @Test func theRepairMigrationDropsPointsThatAreNotOnEarth() throws {
        // Given a database as it was before the repair, holding tracks written without checks
        let queue = try DatabaseQueue()
        try Migrations.migrator.migrate(queue, upTo: "v6 run records, retrospectives")
        let poisoned = floats([37.5, 126.9, .infinity, .nan, 126.9, 10, 37.6, 127.0, 1e38, 37.7, 127.1, 12])
        let hopeless = floats([.nan, 1, 1, 200, 200, 1])
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO users (id, username, email, passwordHash, displayName, createdAt) VALUES (1, 'mina', 'mina@example.com', 'x', 'Mina', ?)
                """, arguments: [Date()])
            for (id, track) in [(1, poisoned), (2, hopeless)] {
                try db.execute(sql: """
                    INSERT INTO records (id, userID, startedAt, distanceMeters, durationSeconds, note, noteHTML, visibility, track, createdAt)
                    VALUES (?, 1, ?, 5000, 1800, '', '', 'public', ?, ?)
                    """, arguments: [id, Date(), track, Date()])
            }
        }

        // When the migrations run
        let database = try AppDatabase(queue)

        // Then every stored point is finite and believable, and a track with nothing left is gone
        let repaired = try #require(try database.records.record(id: 1, viewerID: 1)?.track)
        let points = Track(encoded: repaired).points
        #expect(points.count == 3)
        #expect(points.allSatisfy { $0.latitude.isFinite && $0.longitude.isFinite && ($0.elevation.map(\.isFinite) ?? true) })
        #expect(points.map(\.elevation) == [nil, nil, 12])
        #expect(try database.records.record(id: 2, viewerID: 1)?.track == nil)
    }
}
