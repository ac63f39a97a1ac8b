import Foundation
import Storage
import Testing
import TestSupport

/// SQLite's migrations and PostgreSQL's baseline and migrations are two texts of one schema.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["MOIM_TEST_POSTGRES_URL"] != nil && TestDatabase.onPostgres))
struct SchemaCatalogTests {
    @Test func bothEnginesMakeTheSameSchema() throws {
        // Given a database migrated on each engine
        let sqlite = try AppDatabase.open(directory: NSTemporaryDirectory() + "/catalog-" + UUID().uuidString)
        let postgres = try AppDatabase.open(postgres: try TestDatabase.freshPostgresURL(), connections: 1)
        defer { try? sqlite.close(); try? postgres.close() }
        // When their catalogs are read
        let (mine, theirs) = (try sqlite.schemaCatalog(), try postgres.schemaCatalog())
        // Then they hold the same tables, each with the same columns in the same order, indexes,
        // foreign keys and rules
        #expect(mine.tables.count > 40)
        #expect(Set(mine.tables.keys) == Set(theirs.tables.keys))
        for (name, table) in mine.tables.sorted(by: { $0.key < $1.key }) {
            guard let other = theirs.tables[name] else { continue }
            #expect(table.columns == other.columns, "\(name): SQLite \(table.columns) PostgreSQL \(other.columns)")
            #expect(table.indexes == other.indexes, "\(name) indexes: only SQLite \(table.indexes.subtracting(other.indexes)), only PostgreSQL \(other.indexes.subtracting(table.indexes))")
            #expect(table.foreignKeys == other.foreignKeys, "\(name) foreign keys: only SQLite \(table.foreignKeys.subtracting(other.foreignKeys)), only PostgreSQL \(other.foreignKeys.subtracting(table.foreignKeys))")
            #expect(table.checks == other.checks, "\(name) CHECK rules: SQLite \(table.checks), PostgreSQL \(other.checks)")
        }
    }
}
