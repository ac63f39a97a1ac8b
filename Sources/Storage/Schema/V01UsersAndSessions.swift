import Foundation
import GRDB

extension Migrations {
    static func createUsersAndSessions(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE users (
                id INTEGER PRIMARY KEY,
                username TEXT NOT NULL UNIQUE COLLATE NOCASE
                    CHECK (length(username) BETWEEN 3 AND 20 AND username NOT GLOB '*[^a-z0-9_]*'),
                email TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (length(email) BETWEEN 3 AND 254),
                passwordHash TEXT NOT NULL,
                displayName TEXT NOT NULL CHECK (length(displayName) BETWEEN 1 AND 50),
                bio TEXT NOT NULL DEFAULT '' CHECK (length(bio) <= 500),
                gender TEXT CHECK (gender IN ('female', 'male', 'other')),
                birthYear INTEGER CHECK (birthYear BETWEEN 1900 AND 2100),
                job TEXT CHECK (length(job) <= 30),
                region TEXT CHECK (length(region) <= 30),
                language TEXT CHECK (language IN ('en', 'ko')),
                role TEXT NOT NULL DEFAULT 'member' CHECK (role IN ('member', 'moderator', 'admin')),
                createdAt DATETIME NOT NULL
            );

            CREATE TABLE sessions (
                id INTEGER PRIMARY KEY,
                tokenHash BLOB NOT NULL UNIQUE CHECK (length(tokenHash) = 32),
                userID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                csrfToken TEXT NOT NULL,
                createdAt DATETIME NOT NULL,
                lastSeenAt DATETIME NOT NULL
            );
            CREATE INDEX sessions_user ON sessions(userID);
            """)
    }
}
