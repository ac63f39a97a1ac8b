/// Members and their signed-in browsers.
enum UsersAndSessionsSchema {
    static func sql(_ t: SchemaDialect) -> String {
        """
        \(t.isPostgres ? "CREATE EXTENSION IF NOT EXISTS citext;" : "")
        CREATE TABLE users (
            id \(t.id),
            username \(t.caselessText) NOT NULL UNIQUE
                CHECK (length(username) BETWEEN 3 AND 20 AND \(t.only("username", "a-z0-9_"))),
            email \(t.caselessText) NOT NULL UNIQUE CHECK (length(email) BETWEEN 3 AND 254),
            passwordHash \(t.text) NOT NULL,
            displayName \(t.text) NOT NULL CHECK (length(displayName) BETWEEN 1 AND 50),
            bio \(t.text) NOT NULL DEFAULT '' CHECK (length(bio) <= 500),
            gender \(t.text) CHECK (gender IN ('female', 'male', 'other')),
            birthYear \(t.integer) CHECK (birthYear BETWEEN 1900 AND 2100),
            job \(t.text) CHECK (length(job) <= 30),
            region \(t.text) CHECK (length(region) <= 30),
            language \(t.text) CHECK (language IN ('en', 'ko')),
            role \(t.text) NOT NULL DEFAULT 'member' CHECK (role IN ('member', 'moderator', 'admin')),
            createdAt \(t.date) NOT NULL
        );

        CREATE TABLE sessions (
            id \(t.id),
            tokenHash \(t.blob) NOT NULL UNIQUE CHECK (\(t.byteCount("tokenHash")) = 32),
            userID \(t.integer) NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            csrfToken \(t.text) NOT NULL,
            createdAt \(t.date) NOT NULL,
            lastSeenAt \(t.date) NOT NULL
        );
        CREATE INDEX sessions_user ON sessions(userID);
        """
    }
}
