/// Verified workplaces: the domain of a work address a member proved they read (never the
/// address; its SHA-256, so that one address vouches for one member), when, and the codes
/// under way (one per member, five tries). Meetups may take only verified office workers.
enum WorkplacesSchema {
    static func sql(_ engine: SQLConnection.Engine) -> String {
        let postgres = engine == .postgres
        let text = postgres ? "text" : "TEXT", date = postgres ? "timestamptz" : "DATETIME", id = postgres ? "bigint" : "INTEGER"
        let bytes = postgres ? "bytea" : "BLOB", length = postgres ? "octet_length" : "length", no = postgres ? "FALSE" : "0"
        return """
            ALTER TABLE users ADD COLUMN workplaceDomain \(text) CHECK (length(workplaceDomain) BETWEEN 3 AND 253);
            ALTER TABLE users ADD COLUMN workplaceVerifiedAt \(date);
            ALTER TABLE users ADD COLUMN workplaceAddressHash \(bytes) CHECK (\(length)(workplaceAddressHash) = 32);
            CREATE UNIQUE INDEX users_workplaceAddress ON users(workplaceAddressHash) WHERE workplaceAddressHash IS NOT NULL;
            ALTER TABLE meetups ADD COLUMN workplaceOnly \(postgres ? "boolean" : "BOOLEAN") NOT NULL DEFAULT \(no);
            CREATE INDEX meetups_workplaceOnly ON meetups(startsAt) WHERE workplaceOnly;
            CREATE TABLE workplaceCodes (
                userID \(id) PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                domain \(text) NOT NULL CHECK (length(domain) BETWEEN 3 AND 253),
                addressHash \(bytes) NOT NULL CHECK (\(length)(addressHash) = 32),
                codeHash \(bytes) NOT NULL CHECK (\(length)(codeHash) = 32),
                attempts \(postgres ? "integer" : "INTEGER") NOT NULL DEFAULT 0 CHECK (attempts BETWEEN 0 AND 5),
                createdAt \(date) NOT NULL,
                expiresAt \(date) NOT NULL
            );
            """
    }
}
