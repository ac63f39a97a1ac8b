import Foundation
import GRDB

/// Whole-database copies for `moim backup` and `moim restore`.
extension AppDatabase {
    /// The migrations this build knows, oldest first: a snapshot with others is from a newer Moim.
    public static var knownMigrations: [String] { Migrations.migrator.migrations }

    /// Copies the database at `source` (which a server may be writing to) into a new file at
    /// `destination` with SQLite's online backup: one read transaction, so the copy is the
    /// database as it was at one instant, whatever commits meanwhile. The copy is a single
    /// file (rollback journal, no WAL). Returns the copy's applied migrations.
    public static func snapshot(databaseAt source: String, to destination: String) throws -> [String] {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        let from = try DatabaseQueue(path: source, configuration: configuration)
        defer { try? from.close() }
        let to = try DatabaseQueue(path: destination)
        defer { try? to.close() }
        try from.backup(to: to)
        return try to.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = DELETE")
            return try Migrations.migrator.appliedMigrations(db)
        }
    }

    /// What `PRAGMA integrity_check` says of the file at `path` ("ok" when sound), and its
    /// applied migrations.
    public static func check(databaseAt path: String) throws -> (integrity: String, migrations: [String]) {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in
            let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "; ")
            return (integrity, try Migrations.migrator.appliedMigrations(db))
        }
    }
}
