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
        var applied = Set(try applied(connection))
        if applied.isEmpty {
            let baseline = Array(Migrations.migrator.migrations.prefix { $0 != PostgresSchema.baseline }) + [PostgresSchema.baseline]
            try apply(PostgresSchema.sql, as: baseline, on: connection)
            applied.formUnion(baseline)
        }
        for (name, sql) in later where !applied.contains(name) {
            try apply(sql, as: [name], on: connection)
        }
    }

    /// The migrations after the baseline, in order; their names are SQLite's.
    private static let later = [
        ("v16 shared rate limits", RateEventsSchema.sql(.postgres)),
        ("v17 photo tones", PhotoTonesSchema.sql(.postgres)),
        ("v18 meetup places", MeetupPlacesSchema.sql),
        ("v19 sign-in providers", IdentitiesSchema.sql(.postgres)),
        ("v20 verified workplaces", WorkplacesSchema.sql(.postgres)),
        ("v21 unread rows indexed", UnreadIndexesSchema.sql),
        ("v22 revisions", RevisionsSchema.sql(.postgres)),
        ("v23 payments", PaymentsSchema.sql(.postgres)),
        ("v24 push", PushSchema.sql(.postgres)),
        ("v25 jpeg widths", JPEGWidthsSchema.sql(.postgres)),
        ("v26 record keys", RecordKeysSchema.sql(.postgres)),
        ("v27 display names indexed for search", DisplayNameSearchSchema.postgres),
        ("v28 crews by activity", CrewActivitySchema.sql),
        ("v29 search keys", SearchKeysSchema.postgres),
    ]

    private static func apply(_ sql: String, as names: [String], on connection: PostgresConnection) throws {
        try connection.execute("BEGIN")
        do {
            try connection.execute(sql)
            for name in names {
                try connection.run("INSERT INTO schema_migrations (identifier) VALUES (?)", [.text(name)])
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
