/// A retrospective belongs to a crew or (one per meetup) to a meetup; the table is rebuilt to
/// let `crewID` be empty and to hold `meetupID` beside it.
enum RetrosSchema {
    static func sql(_ t: SchemaDialect) -> String {
        t.rebuild("retros", create: create(t, ofMeetups: true), copied: ["id", "crewID", "name", "startsAt", "closedAt", "createdBy", "createdAt"],
                  indexes: ["CREATE INDEX retros_crew ON retros(crewID, startsAt) WHERE crewID IS NOT NULL;",
                            "CREATE UNIQUE INDEX retros_meetup ON retros(meetupID) WHERE meetupID IS NOT NULL;"],
                  referencedBy: [("retroFeedback", "retroID", "CASCADE")])
    }

    /// The table as V06 made it, or (`ofMeetups`) as this migration makes it again.
    static func create(_ t: SchemaDialect, ofMeetups: Bool) -> String {
        """
        CREATE TABLE retros (
            id \(t.id),
            crewID \(t.integer)\(ofMeetups ? "" : " NOT NULL") REFERENCES crews(id) ON DELETE CASCADE,\(ofMeetups
                ? "\n    meetupID \(t.integer) REFERENCES meetups(id) ON DELETE CASCADE," : "")
            name \(t.text) NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
            startsAt \(t.date) NOT NULL,
            closedAt \(t.date),
            createdBy \(t.integer) REFERENCES users(id) ON DELETE SET NULL,
            createdAt \(t.date) NOT NULL\(ofMeetups ? ",\n    CHECK ((crewID IS NULL) != (meetupID IS NULL))" : "")
        );
        """
    }
}
