/// Sign-in through other providers: which provider account (its `sub`) belongs to which
/// member, and the sign-ins under way (each `state` used once, within ten minutes).
enum IdentitiesSchema {
    static func sql(_ t: SchemaDialect) -> String {
        """
        CREATE TABLE identities (
            provider \(t.text) NOT NULL CHECK (length(provider) BETWEEN 1 AND 40),
            subject \(t.text) NOT NULL CHECK (length(subject) BETWEEN 1 AND 255),
            userID \(t.integer) NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            createdAt \(t.date) NOT NULL,
            PRIMARY KEY (provider, subject)
        );
        CREATE INDEX identities_user ON identities(userID);
        CREATE TABLE signInAttempts (
            state \(t.text) PRIMARY KEY CHECK (length(state) BETWEEN 16 AND 100),
            provider \(t.text) NOT NULL,
            nonce \(t.text) NOT NULL,
            verifier \(t.text) NOT NULL,
            next \(t.text) NOT NULL,
            linkUserID \(t.integer) REFERENCES users(id) ON DELETE CASCADE,
            createdAt \(t.date) NOT NULL
        );
        CREATE TABLE pendingIdentities (
            token \(t.text) PRIMARY KEY CHECK (length(token) BETWEEN 16 AND 100),
            provider \(t.text) NOT NULL,
            subject \(t.text) NOT NULL,
            email \(t.text),
            name \(t.text),
            next \(t.text) NOT NULL,
            createdAt \(t.date) NOT NULL
        );
        """
    }
}
