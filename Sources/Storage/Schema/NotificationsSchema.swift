/// The notifications table, which three migrations rebuilt as it learnt of crews (V03) and
/// meetups (V04, V10): each time its CHECK names more kinds, and new columns take their place
/// before `createdAt`.
enum NotificationsSchema {
    /// What the table has columns for; each includes the ones before.
    enum Shape: Int {
        case feed, crews, meetups
    }

    static let index = "CREATE INDEX notifications_user ON notifications(userID, id);"

    static func create(_ t: SchemaDialect, _ shape: Shape, kinds: [String]) -> String {
        let kindList = kinds.map { "'\($0)'" }.joined(separator: ", ")
        let crews = shape.rawValue >= Shape.crews.rawValue ? "\n    crewID \(t.integer) REFERENCES crews(id) ON DELETE CASCADE," : ""
        let meetups = shape.rawValue >= Shape.meetups.rawValue
            ? "\n    meetupID \(t.integer) REFERENCES meetups(id) ON DELETE CASCADE,\n    detail \(t.text) NOT NULL DEFAULT ''," : ""
        return """
            CREATE TABLE notifications (
                id \(t.id),
                userID \(t.integer) NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                kind \(t.text) NOT NULL CHECK (kind IN (\(kindList))),
                actorID \(t.integer) NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                postID \(t.integer) REFERENCES posts(id) ON DELETE CASCADE,
                commentID \(t.integer) REFERENCES comments(id) ON DELETE CASCADE,\(crews)\(meetups)
                createdAt \(t.date) NOT NULL,
                readAt \(t.date)
            );
            """
    }

    /// The table made anew for `kinds` and the columns of `new`, keeping what `old` had, with
    /// the indexes and the foreign keys pointing at it that later migrations added.
    static func rebuild(_ t: SchemaDialect, from old: Shape, to new: Shape, kinds: [String], laterIndexes: [String] = [],
                        referencedBy: [(table: String, column: String, onDelete: String)] = []) -> String {
        t.rebuild("notifications", create: create(t, new, kinds: kinds), copied: columns(old), indexes: [index] + laterIndexes,
                  referencedBy: referencedBy)
    }

    private static func columns(_ shape: Shape) -> [String] {
        ["id", "userID", "kind", "actorID", "postID", "commentID"]
            + (shape.rawValue >= Shape.crews.rawValue ? ["crewID"] : [])
            + (shape.rawValue >= Shape.meetups.rawValue ? ["meetupID", "detail"] : [])
            + ["createdAt", "readAt"]
    }
}
