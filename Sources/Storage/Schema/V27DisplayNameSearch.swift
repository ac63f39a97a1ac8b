/// Members found by their display name through an index on PostgreSQL: `pg_trgm`'s, which
/// answers `LIKE` and `ILIKE` for three characters or more, as the crews' and the posts' do.
/// Without it, every search read all members: 3.4 ms for a Korean word on a site of 10,000,
/// 0.2 ms with it. SQLite scans them (0.8 ms for 10,000: its `LIKE` is a byte match), so the
/// migration changes nothing there; it exists on both engines so that their lists of
/// migrations stay one list (a backup names them).
enum DisplayNameSearchSchema {
    static let postgres = "CREATE INDEX users_displayName_search ON users USING gin (displayName gin_trgm_ops);"
}
