/// Verified workplaces: the domain of a work address a member proved they read (never the
/// address; its SHA-256, so that one address vouches for one member), when, and the codes
/// under way (one per member, five tries). Meetups may take only verified office workers.
enum WorkplacesSchema {
    static func sql(_ t: SchemaDialect) -> String {
        """
        ALTER TABLE users ADD COLUMN workplaceDomain \(t.text) CHECK (length(workplaceDomain) BETWEEN 3 AND 253);
        ALTER TABLE users ADD COLUMN workplaceVerifiedAt \(t.date);
        ALTER TABLE users ADD COLUMN workplaceAddressHash \(t.blob) CHECK (\(t.byteCount("workplaceAddressHash")) = 32);
        CREATE UNIQUE INDEX users_workplaceAddress ON users(workplaceAddressHash) WHERE workplaceAddressHash IS NOT NULL;
        ALTER TABLE meetups ADD COLUMN workplaceOnly \(t.boolean) NOT NULL DEFAULT \(t.false);
        CREATE INDEX meetups_workplaceOnly ON meetups(startsAt) WHERE workplaceOnly;
        CREATE TABLE workplaceCodes (
            userID \(t.integer) PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
            domain \(t.text) NOT NULL CHECK (length(domain) BETWEEN 3 AND 253),
            addressHash \(t.blob) NOT NULL CHECK (\(t.byteCount("addressHash")) = 32),
            codeHash \(t.blob) NOT NULL CHECK (\(t.byteCount("codeHash")) = 32),
            attempts \(t.shortInteger) NOT NULL DEFAULT 0 CHECK (attempts BETWEEN 0 AND 5),
            createdAt \(t.date) NOT NULL,
            expiresAt \(t.date) NOT NULL
        );
        """
    }
}
