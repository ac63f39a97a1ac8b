/// Brings a PostgreSQL database's schema up to date with `Migrations.all`, as GRDB's migrator
/// does SQLite's, under the same names. Servers starting together take turns (an advisory
/// lock), and each step is one transaction. (Databases made before each migration was written
/// for both engines got the first fifteen as one baseline, recorded under their names.)
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
        let applied = Set(try applied(connection))
        for migration in Migrations.all where !applied.contains(migration.name) {
            try apply(migration.sql(SchemaDialect(.postgres)), as: migration.name, on: connection)
        }
    }

    private static func apply(_ sql: String, as name: String, on connection: PostgresConnection) throws {
        try connection.execute("BEGIN")
        do {
            if !sql.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { try connection.execute(sql) }
            try connection.run("INSERT INTO schema_migrations (identifier) VALUES (?)", [.text(name)])
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

extension AppDatabase {
    /// How many tables the PostgreSQL database at `url` holds (0 for a new one).
    public static func postgresTableCount(_ url: String) throws -> Int {
        var count = 0
        try PostgresConnection(url: url).run("SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()", []) {
            count = try $0.decode(Int.self, atIndex: 0)
        }
        return count
    }
}
