/// A record's key from the device that made it (a run recorded in the browser sends one per
/// run), so that sending the same run again, after a lost answer or from the offline queue,
/// finds the record already made instead of making a second.
enum RecordKeysSchema {
    static func sql(_ t: SchemaDialect) -> String {
        """
        ALTER TABLE records ADD COLUMN clientKey \(t.text) CHECK (clientKey IS NULL OR length(clientKey) BETWEEN 16 AND 64);
        CREATE UNIQUE INDEX records_client_key ON records(userID, clientKey) WHERE clientKey IS NOT NULL;
        """
    }
}
