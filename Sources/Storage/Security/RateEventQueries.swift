import Foundation

extension SecurityStore {
    /// How many events `key` had since `since`, and when the oldest of them was.
    public func rateEvents(key: String, since: Date) throws -> (count: Int, oldest: Date?) {
        try database.readRows { db in
            try db.fetchOne("SELECT count(*) AS events, min(at) AS oldest FROM rateEvents WHERE key = ? AND at > ?", [key, since]) {
                (try $0.decode("events"), try $0.decode("oldest"))
            } ?? (0, nil)
        }
    }

    public func recordRateEvent(key: String, at: Date = Date()) throws {
        try database.write { db in try db.execute("INSERT INTO rateEvents (key, at) VALUES (?, ?)", [key, at]) }
    }

    public func resetRateEvents(key: String) throws {
        try database.write { db in try db.execute("DELETE FROM rateEvents WHERE key = ?", [key]) }
    }

    /// Forgets events older than every window (the minute sweep).
    public func pruneRateEvents(before: Date) throws {
        try database.write { db in try db.execute("DELETE FROM rateEvents WHERE at < ?", [before]) }
    }
}

extension AppDatabase {
    /// True when other servers may share this database (PostgreSQL): what one process would
    /// keep in memory, such as rate limits, is kept in the database instead.
    public var isShared: Bool { engine.isShared }
}
