/// Sign-in through other providers: which provider account (its `sub`) belongs to which
/// member, and the sign-ins under way (each `state` used once, within ten minutes).
enum IdentitiesSchema {
    static func sql(_ engine: SQLConnection.Engine) -> String {
        let text = engine == .postgres ? "text" : "TEXT", date = engine == .postgres ? "timestamptz" : "DATETIME"
        let id = engine == .postgres ? "bigint" : "INTEGER"
        return """
            CREATE TABLE identities (
                provider \(text) NOT NULL CHECK (length(provider) BETWEEN 1 AND 40),
                subject \(text) NOT NULL CHECK (length(subject) BETWEEN 1 AND 255),
                userID \(id) NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                createdAt \(date) NOT NULL,
                PRIMARY KEY (provider, subject)
            );
            CREATE INDEX identities_user ON identities(userID);
            CREATE TABLE signInAttempts (
                state \(text) PRIMARY KEY CHECK (length(state) BETWEEN 16 AND 100),
                provider \(text) NOT NULL,
                nonce \(text) NOT NULL,
                verifier \(text) NOT NULL,
                next \(text) NOT NULL,
                linkUserID \(id) REFERENCES users(id) ON DELETE CASCADE,
                createdAt \(date) NOT NULL
            );
            CREATE TABLE pendingIdentities (
                token \(text) PRIMARY KEY CHECK (length(token) BETWEEN 16 AND 100),
                provider \(text) NOT NULL,
                subject \(text) NOT NULL,
                email \(text),
                name \(text),
                next \(text) NOT NULL,
                createdAt \(date) NOT NULL
            );
            """
    }
}
