/// Groups inside one meetup, each with its own capacity (kept by its own CHECK) and waitlist.
enum PaceGroupsSchema {
    static func sql(_ t: SchemaDialect) -> String {
        """
        CREATE TABLE meetupGroups (
            id \(t.id),
            meetupID \(t.integer) NOT NULL REFERENCES meetups(id) ON DELETE CASCADE,
            position \(t.integer) NOT NULL,
            label \(t.text) NOT NULL CHECK (length(label) BETWEEN 1 AND 20),
            capacity \(t.integer) NOT NULL CHECK (capacity BETWEEN 1 AND 1000),
            leaderID \(t.integer) REFERENCES users(id) ON DELETE SET NULL,
            acceptedCount \(t.integer) NOT NULL DEFAULT 0 CHECK (acceptedCount BETWEEN 0 AND capacity)
        );
        CREATE INDEX meetupGroups_meetup ON meetupGroups(meetupID, position);
        ALTER TABLE meetupApplications ADD COLUMN groupID \(t.integer) REFERENCES meetupGroups(id) ON DELETE SET NULL;
        """
    }
}
