/// A code the host shows at the start; five wrong codes lock a person's check-in.
enum CheckInSchema {
    static func sql(_ t: SchemaDialect) -> String {
        """
        ALTER TABLE meetups ADD COLUMN checkinCode \(t.text) CHECK (checkinCode IS NULL OR length(checkinCode) = 6);
        CREATE TABLE checkinAttempts (
            meetupID \(t.integer) NOT NULL REFERENCES meetups(id) ON DELETE CASCADE,
            userID \(t.integer) NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            failures \(t.integer) NOT NULL DEFAULT 0 CHECK (failures BETWEEN 0 AND 5),
            PRIMARY KEY (meetupID, userID)
        )\(t.withoutRowID);
        """
    }
}
