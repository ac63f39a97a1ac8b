/// Web Push: the site's own keys (the VAPID key, made once so that every server of a site signs
/// with it), each browser a member turned notifications on in (tied to the session it was
/// turned on in: signing out, or a password change that ends the session, drops it; another
/// member signing in on the same browser gets nothing of the first), what each member wants
/// pushed, and the queue of pushes, written in the transaction that made the news.
enum PushSchema {
    static func sql(_ t: SchemaDialect) -> String {
        """
        CREATE TABLE siteKeys (
            name \(t.text) PRIMARY KEY,
            value \(t.blob) NOT NULL CHECK (\(t.byteCount("value")) BETWEEN 1 AND 4096),
            createdAt \(t.date) NOT NULL
        );

        CREATE TABLE pushSubscriptions (
            id \(t.id),
            userID \(t.integer) NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            sessionID \(t.integer) NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            endpoint \(t.text) NOT NULL UNIQUE CHECK (length(endpoint) BETWEEN 10 AND 1024),
            p256dh \(t.blob) NOT NULL CHECK (\(t.byteCount("p256dh")) = 65),
            auth \(t.blob) NOT NULL CHECK (\(t.byteCount("auth")) = 16),
            name \(t.text) NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
            createdAt \(t.date) NOT NULL,
            lastUsedAt \(t.date)
        );
        CREATE INDEX pushSubscriptions_user ON pushSubscriptions(userID);
        CREATE INDEX pushSubscriptions_session ON pushSubscriptions(sessionID);

        CREATE TABLE pushPreferences (
            userID \(t.integer) PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
            kinds \(t.text) NOT NULL CHECK (length(kinds) <= 200)
        );

        CREATE TABLE pushQueue (
            id \(t.id),
            subscriptionID \(t.integer) NOT NULL REFERENCES pushSubscriptions(id) ON DELETE CASCADE,
            notificationID \(t.integer) REFERENCES notifications(id) ON DELETE CASCADE,
            talkID \(t.integer) REFERENCES meetupTalk(id) ON DELETE CASCADE,
            attempts \(t.shortInteger) NOT NULL DEFAULT 0,
            nextAttemptAt \(t.date) NOT NULL,
            createdAt \(t.date) NOT NULL,
            CHECK ((notificationID IS NULL) != (talkID IS NULL))
        );
        CREATE INDEX pushQueue_due ON pushQueue(nextAttemptAt);
        CREATE INDEX pushQueue_subscription ON pushQueue(subscriptionID);
        """
    }
}
