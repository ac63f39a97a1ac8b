import Foundation
import GRDB
import Testing
import TestSupport
@testable import Storage

/// A table rebuilt by a migration (`SchemaDialect.rebuild`) keeps its rows, the keys other
/// tables hold to it, and on PostgreSQL the names a table made at once would have, so that a
/// later migration can name its rules on every site alike.
struct SchemaDialectTests {
    @Test func aRebuiltTableKeepsItsRowsItsReferencesAndItsNames() throws {
        // Given a table with rows, a table that refers to it, and a rebuild that changes a CHECK
        let database = try TestDatabase.fresh()
        let t = SchemaDialect(database.engine)
        let create = { (kinds: String) in
            """
            CREATE TABLE gear (
                id \(t.id),
                kind \(t.text) NOT NULL CHECK (kind IN (\(kinds))),
                label \(t.text) NOT NULL DEFAULT ''
            );
            """
        }
        try migrate(database, "gear") {
            create("'shoe', 'watch'") + """
                CREATE INDEX gear_kind ON gear(kind);
                CREATE TABLE gearLoans (id \(t.id), gearID \(t.integer) NOT NULL REFERENCES gear(id) ON DELETE CASCADE);
                INSERT INTO gear (kind, label) VALUES ('shoe', 'Pegasus'), ('watch', 'Forerunner');
                INSERT INTO gearLoans (gearID) VALUES (2);
                """
        }

        // When it is rebuilt to allow one more kind
        try migrate(database, "more gear") {
            t.rebuild("gear", create: create("'shoe', 'watch', 'lamp'"), copied: ["id", "kind", "label"],
                      indexes: ["CREATE INDEX gear_kind ON gear(kind);"], referencedBy: [("gearLoans", "gearID", "CASCADE")])
        }

        // Then its rows are there, new rows take the next ids and the new kind, and the loan still follows its gear
        let labels = try database.read { db in try db.values("SELECT label FROM gear ORDER BY id", as: String.self) }
        #expect(labels == ["Pegasus", "Forerunner"])
        #expect(try database.read { db in try db.value("SELECT count(*) FROM gearLoans", as: Int.self) } == 1)
        let lamp = try database.write { db in try db.value("INSERT INTO gear (kind, label) VALUES ('lamp', 'Headlamp') RETURNING id", as: Int64.self) }
        #expect(lamp == 3)
        try database.write { db in try db.execute("DELETE FROM gear WHERE id = 2") }
        #expect(try database.read { db in try db.value("SELECT count(*) FROM gearLoans", as: Int.self) } == 0)
        #expect(throws: (any Error).self) { try database.write { db in try db.execute("INSERT INTO gear (kind) VALUES ('tent')") } }
        // And on PostgreSQL its rules have the names of a table made at once
        if database.engine == .postgres {
            let names = try database.read { db in
                try db.values("""
                    SELECT conname::text FROM pg_constraint WHERE conrelid IN ('gear'::regclass, 'gearloans'::regclass) ORDER BY 1
                    """, as: String.self)
            }
            #expect(names == ["gear_kind_check", "gear_pkey", "gearloans_gearid_fkey", "gearloans_pkey"])
        }
    }

    /// Runs `sql` as a migration runs: on SQLite through GRDB's migrator, which turns foreign
    /// keys off until it is done (a rebuild's `DROP TABLE` would otherwise delete what refers
    /// to the table), and on PostgreSQL in one transaction.
    private func migrate(_ database: AppDatabase, _ name: String, _ script: () -> String) throws {
        let sql = script()
        switch database.store {
        case .sqlite(let sqlite):
            var migrator = DatabaseMigrator()
            migrator.registerMigration(name) { db in try db.execute(sql: sql) }
            try migrator.migrate(sqlite.writer)
        case .postgres:
            try database.write { db in try db.runScript(sql) }
        }
    }
}
