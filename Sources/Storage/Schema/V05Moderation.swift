/// Moderation: hiding and locking, sanctions, reports, the moderators' log, warnings and blocks.
enum ModerationSchema {
    static func sql(_ t: SchemaDialect) -> String {
        """
        ALTER TABLE posts ADD COLUMN hiddenAt \(t.date);
        ALTER TABLE posts ADD COLUMN commentsLocked \(t.boolean) NOT NULL DEFAULT \(t.false);
        ALTER TABLE comments ADD COLUMN hiddenAt \(t.date);
        ALTER TABLE crews ADD COLUMN hiddenAt \(t.date);
        ALTER TABLE meetups ADD COLUMN hiddenAt \(t.date);
        ALTER TABLE users ADD COLUMN suspendedUntil \(t.date);
        ALTER TABLE users ADD COLUMN silencedUntil \(t.date);
        ALTER TABLE users ADD COLUMN sanctionReason \(t.text) NOT NULL DEFAULT '';

        CREATE TABLE reports (
            id \(t.id),
            reporterID \(t.integer) NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            targetType \(t.text) NOT NULL CHECK (targetType IN ('post', 'comment', 'crew', 'meetup', 'user')),
            targetID \(t.integer) NOT NULL,
            reason \(t.text) NOT NULL CHECK (reason IN ('spam', 'harassment', 'inappropriate', 'offTopic', 'other')),
            note \(t.text) NOT NULL DEFAULT '' CHECK (length(note) <= 500),
            createdAt \(t.date) NOT NULL,
            resolvedAt \(t.date),
            resolution \(t.text)
        );
        -- One open report per reporter per target.
        CREATE UNIQUE INDEX reports_open ON reports(reporterID, targetType, targetID) WHERE resolvedAt IS NULL;
        CREATE INDEX reports_target ON reports(targetType, targetID);

        CREATE TABLE moderationLog (
            id \(t.id),
            moderatorID \(t.integer) REFERENCES users(id) ON DELETE SET NULL,
            action \(t.text) NOT NULL,
            targetType \(t.text) NOT NULL,
            targetID \(t.integer) NOT NULL,
            targetLabel \(t.text) NOT NULL DEFAULT '',
            reason \(t.text) NOT NULL DEFAULT '',
            createdAt \(t.date) NOT NULL
        );

        CREATE TABLE warnings (
            id \(t.id),
            userID \(t.integer) NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            moderatorID \(t.integer) REFERENCES users(id) ON DELETE SET NULL,
            reason \(t.text) NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
            createdAt \(t.date) NOT NULL,
            readAt \(t.date)
        );

        CREATE TABLE blocks (
            blockerID \(t.integer) NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            blockedID \(t.integer) NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            createdAt \(t.date) NOT NULL,
            PRIMARY KEY (blockerID, blockedID),
            CHECK (blockerID != blockedID)
        )\(t.withoutRowID);
        CREATE INDEX blocks_blocked ON blocks(blockedID, blockerID);
        """
    }
}
