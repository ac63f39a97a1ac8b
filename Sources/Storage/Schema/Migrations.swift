import Foundation
import Formats
import GRDB

/// Named, append-only schema migrations. Never edit a shipped one: add the next.
enum Migrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1 users and sessions", migrate: createUsersAndSessions)
        migrator.registerMigration("v2 posts, photos, comments, likes, follows, notifications", migrate: createFeed)
        migrator.registerMigration("v3 crews, members, ledger, crew posts and comments", migrate: createCrews)
        migrator.registerMigration("v4 meetups, applications, talk, meetup bookmarks", migrate: createMeetups)
        migrator.registerMigration("v5 reports, moderation log, hiding, suspensions, blocks", migrate: createModeration)
        migrator.registerMigration("v6 run records, retrospectives", migrate: createRecordsAndRetros)
        migrator.registerMigration("v7 repair tracks with points out of range", migrate: repairTracks)
        migrator.registerMigration("v8 home timelines", migrate: createTimelines)
        migrator.registerMigration("v9 splits of runs", migrate: addSplits)
        migrator.registerMigration("v10 re-confirming places after a move", migrate: addReconfirmation)
        migrator.registerMigration("v11 lottery signup", migrate: addLottery)
        migrator.registerMigration("v12 meetup retrospectives", migrate: addMeetupRetros)
        migrator.registerMigration("v13 self check-in", migrate: addCheckIn)
        migrator.registerMigration("v14 pace groups", migrate: addPaceGroups)
        migrator.registerMigration("v15 email: outbox, tokens, mail settings", migrate: addMail)
        migrator.registerMigration("v16 shared rate limits", migrate: { db in try db.execute(sql: RateEventsSchema.sql(.sqlite)) })
        migrator.registerMigration("v17 photo tones", migrate: { db in try db.execute(sql: PhotoTonesSchema.sql(.sqlite)) })
        migrator.registerMigration("v18 meetup places", migrate: { db in try db.execute(sql: MeetupPlacesSchema.sql) })
        migrator.registerMigration("v19 sign-in providers", migrate: { db in try db.execute(sql: IdentitiesSchema.sql(.sqlite)) })
        migrator.registerMigration("v20 verified workplaces", migrate: { db in try db.execute(sql: WorkplacesSchema.sql(.sqlite)) })
        migrator.registerMigration("v21 unread rows indexed", migrate: { db in try db.execute(sql: UnreadIndexesSchema.sql) })
        migrator.registerMigration("v22 revisions", migrate: { db in try db.execute(sql: RevisionsSchema.sql(.sqlite)) })
        migrator.registerMigration("v23 payments", migrate: { db in try db.execute(sql: PaymentsSchema.sql(.sqlite)) })
        migrator.registerMigration("v24 push", migrate: { db in try db.execute(sql: PushSchema.sql(.sqlite)) })
        migrator.registerMigration("v25 jpeg widths", migrate: { db in try db.execute(sql: JPEGWidthsSchema.sql(.sqlite)) })
        migrator.registerMigration("v26 record keys", migrate: { db in try db.execute(sql: RecordKeysSchema.sql(.sqlite)) })
        migrator.registerMigration("v27 display names indexed for search", migrate: { _ in })  // PostgreSQL's alone: DisplayNameSearchSchema
        migrator.registerMigration("v28 crews by activity", migrate: { db in try db.execute(sql: CrewActivitySchema.sql) })
        migrator.registerMigration("v29 search keys", migrate: addSearchKeys)
        return migrator
    }
}
