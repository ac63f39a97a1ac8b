/// Brings a PostgreSQL database's schema up to date, as `Migrations` does SQLite's: an empty
/// database gets the baseline (`PostgresSchema`), which stands for SQLite's first fifteen
/// migrations; later ones are added here in order. Servers starting together take turns (an
/// advisory lock), and each step is one transaction.
enum PostgresMigrations {
    /// The advisory lock's key: "moim" in ASCII.
    private static let lock = 0x6D6F_696D

    static func migrate(_ connection: PostgresConnection) throws {
        try connection.execute("SELECT pg_advisory_lock(\(lock))")
        defer { try? connection.execute("SELECT pg_advisory_unlock(\(lock))") }
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS schema_migrations (
                position bigint GENERATED ALWAYS AS IDENTITY, identifier text PRIMARY KEY, appliedAt timestamptz NOT NULL DEFAULT now())
            """)
        guard try applied(connection).isEmpty else { return }
        try connection.execute("BEGIN")
        do {
            try connection.execute(PostgresSchema.sql)
            for name in Migrations.migrator.migrations {
                try connection.run("INSERT INTO schema_migrations (identifier) VALUES (?)", [.text(name)])
                if name == PostgresSchema.baseline { break }
            }
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// Names of the migrations applied, oldest first.
    static func applied(_ connection: PostgresConnection) throws -> [String] {
        var names: [String] = []
        try connection.run("SELECT identifier FROM schema_migrations ORDER BY position", []) { names.append(try $0.string(atIndex: 0)) }
        return names
    }
}
