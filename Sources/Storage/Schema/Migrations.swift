import Foundation
import Formats
import GRDB

/// Named, append-only schema migrations, each written once for both engines (a function of
/// `SchemaDialect`), applied in order by GRDB's migrator on SQLite and by
/// `PostgresMigrations` on PostgreSQL, under the same names. Never edit a shipped one: add the next.
enum Migrations {
    struct Migration: Sendable {
        let name: String
        /// Its statements on each engine; empty where it has nothing to do on one.
        let sql: @Sendable (SchemaDialect) -> String
        /// On SQLite, rows rewritten in Swift after the statements (sites on SQLite are older
        /// than any on PostgreSQL, and hold rows written before a rule was checked).
        var sqliteRows: (@Sendable (Database) throws -> Void)? = nil
    }

    static let all: [Migration] = [
        Migration(name: "v1 users and sessions", sql: UsersAndSessionsSchema.sql),
        Migration(name: "v2 posts, photos, comments, likes, follows, notifications", sql: FeedSchema.sql),
        Migration(name: "v3 crews, members, ledger, crew posts and comments", sql: CrewsSchema.sql),
        Migration(name: "v4 meetups, applications, talk, meetup bookmarks", sql: MeetupsSchema.sql),
        Migration(name: "v5 reports, moderation log, hiding, suspensions, blocks", sql: ModerationSchema.sql),
        Migration(name: "v6 run records, retrospectives", sql: RecordsAndRetrosSchema.sql),
        Migration(name: "v7 repair tracks with points out of range", sql: { _ in "" }, sqliteRows: repairTracks),
        Migration(name: "v8 home timelines", sql: TimelinesSchema.sql),
        Migration(name: "v9 splits of runs", sql: SplitsSchema.sql),
        Migration(name: "v10 re-confirming places after a move", sql: ReconfirmationSchema.sql),
        Migration(name: "v11 lottery signup", sql: LotterySchema.sql),
        Migration(name: "v12 meetup retrospectives", sql: RetrosSchema.sql),
        Migration(name: "v13 self check-in", sql: CheckInSchema.sql),
        Migration(name: "v14 pace groups", sql: PaceGroupsSchema.sql),
        Migration(name: "v15 email: outbox, tokens, mail settings", sql: MailSchema.sql),
        Migration(name: "v16 shared rate limits", sql: RateEventsSchema.sql),
        Migration(name: "v17 photo tones", sql: PhotoTonesSchema.sql),
        Migration(name: "v18 meetup places", sql: { _ in MeetupPlacesSchema.sql }),
        Migration(name: "v19 sign-in providers", sql: IdentitiesSchema.sql),
        Migration(name: "v20 verified workplaces", sql: WorkplacesSchema.sql),
        Migration(name: "v21 unread rows indexed", sql: { _ in UnreadIndexesSchema.sql }),
        Migration(name: "v22 revisions", sql: RevisionsSchema.sql),
        Migration(name: "v23 payments", sql: PaymentsSchema.sql),
        Migration(name: "v24 push", sql: PushSchema.sql),
        Migration(name: "v25 jpeg widths", sql: JPEGWidthsSchema.sql),
        Migration(name: "v26 record keys", sql: RecordKeysSchema.sql),
        // SQLite's search of display names is v29's; PostgreSQL's trigram index answers it.
        Migration(name: "v27 display names indexed for search", sql: { $0.isPostgres ? DisplayNameSearchSchema.postgres : "" }),
        Migration(name: "v28 crews by activity", sql: { _ in CrewActivitySchema.sql }),
        Migration(name: "v29 search keys", sql: { $0.isPostgres ? SearchKeysSchema.postgres : SearchKeysSchema.sqlite },
                  sqliteRows: fillPostGrams),
        Migration(name: "v30 talk", sql: TalkSchema.sql),
        Migration(name: "v31 two-factor, documents, agreements, deleted accounts", sql: AccountsSchema.sql),
        Migration(name: "v32 crew life", sql: CrewLifeSchema.sql),
    ]

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for migration in all {
            migrator.registerMigration(migration.name) { db in
                let sql = migration.sql(SchemaDialect(.sqlite))
                if !sql.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { try db.execute(sql: sql) }
                try migration.sqliteRows?(db)
            }
        }
        return migrator
    }
}
