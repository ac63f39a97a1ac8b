/// A third signup mode: a draw at the deadline, committed to by the SHA-256 of a secret seed
/// shown from the start and revealed at the draw. A CHECK changes, so the table is rebuilt
/// (GRDB checks foreign keys after the migration on SQLite; PostgreSQL's are made again).
enum LotterySchema {
    static func sql(_ t: SchemaDialect) -> String {
        let columns = ["id", "hostID", "crewID", "crewOnly", "title", "description", "descriptionHTML", "startsAt", "durationMinutes",
                       "placeName", "address", "latitude", "longitude", "placeNote", "region", "timeSlot", "distanceKm", "pace", "style",
                       "capacity", "signupMode", "deadline", "afterParty", "genderRule", "minAge", "maxAge", "jobs", "acceptedCount",
                       "closedAt", "sequence", "createdAt", "updatedAt", "hiddenAt"]
        return t.rebuild("meetups", create: MeetupsSchema.create(t, lottery: true), copied: columns,
                         indexes: MeetupsSchema.indexes + ["CREATE INDEX meetups_draw ON meetups(deadline) WHERE signupMode = 'lottery' AND drawnAt IS NULL;"],
                         referencedBy: [("meetupApplications", "meetupID", "CASCADE"), ("meetupTalk", "meetupID", "CASCADE"),
                                        ("meetupBookmarks", "meetupID", "CASCADE"), ("notifications", "meetupID", "CASCADE"),
                                        ("records", "meetupID", "SET NULL")])
    }
}
