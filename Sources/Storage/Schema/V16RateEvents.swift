/// Rate-limited events (failed sign-ins, signups, reset requests) kept in the database, so
/// that servers sharing one count together. One server on SQLite counts in memory instead
/// and leaves the table empty.
enum RateEventsSchema {
    static func sql(_ t: SchemaDialect) -> String {
        """
        CREATE TABLE rateEvents (
            key \(t.text) NOT NULL CHECK (length(key) <= 300),
            at \(t.date) NOT NULL
        );
        CREATE INDEX rateEvents_key ON rateEvents(key, at);
        """
    }
}
