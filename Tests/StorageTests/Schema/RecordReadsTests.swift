import Foundation
import Testing
import TestSupport
@testable import Storage

/// A row reads the same on both engines: a site is filled on SQLite through the same writes
/// pages make, copied into PostgreSQL (`copy(to:)` compares every table's rows by checksum),
/// and then every stored type is read back from both and compared value by value.
@Suite(.enabled(if: TestDatabase.onPostgres, "compares with PostgreSQL (TEST_DB=postgres)"))
struct RecordReadsTests {
    private let now = Date(timeIntervalSince1970: 1_780_000_000.125)

    @Test func everyStoredTypeReadsTheSameOnBothEngines() throws {
        // Given a SQLite site holding a row of every stored type, copied into PostgreSQL
        let sqlite = try AppDatabase.inMemory()
        try fill(sqlite)
        let postgres = try AppDatabase.open(postgres: try TestDatabase.freshPostgresURL(), connections: 2)
        defer { try? postgres.close() }
        let copied = try sqlite.copy(to: postgres)
        #expect(copied.count == AppDatabase.tablesInOrder.count)

        // Then each type's rows read back equal, in every column it reads
        try same(User.self, sqlite, postgres)
        try same(Session.self, sqlite, postgres)
        try same(Crew.self, sqlite, postgres)
        try same(CrewComment.self, sqlite, postgres)
        try same(LedgerEntry.self, sqlite, postgres)
        try same(DuesPeriod.self, sqlite, postgres)
        try same(Payment.self, sqlite, postgres)
        try same(Post.self, sqlite, postgres)
        try same(Photo.self, sqlite, postgres)
        try same(Comment.self, sqlite, postgres)
        try same(Notification.self, sqlite, postgres)
        try same(Meetup.self, sqlite, postgres)
        try same(PaceGroup.self, sqlite, postgres)
        try same(RunRecord.self, sqlite, postgres)
        try same(Retro.self, sqlite, postgres)
        try same(Feedback.self, sqlite, postgres)
        try same(LogEntry.self, sqlite, postgres)
        let settings = "SELECT \(MailSettings.selection.bare) FROM mailSettings ORDER BY userID"
        let read: (AppDatabase) throws -> [MailSettings] = { database in
            try database.read { db in try db.fetchAll(settings) { try MailSettings(row: $0, startingAt: 0) } }
        }
        #expect(try read(sqlite).count == 3)
        #expect(try read(sqlite) == read(postgres))
        let outbox = "SELECT \(OutboxMail.selection.bare) FROM outbox ORDER BY id"
        let mail: (AppDatabase) throws -> [OutboxMail] = { database in try database.read { db in try db.fetchAll(outbox, [], OutboxMail.init(row:)) } }
        #expect(try mail(sqlite).count == 1)
        #expect(try mail(sqlite) == mail(postgres))
    }

    private func same<Record: SQLRecord & Equatable>(_ type: Record.Type, _ sqlite: AppDatabase, _ postgres: AppDatabase) throws {
        let sql = "SELECT \(Record.selection.bare) FROM \(Record.databaseTableName) ORDER BY id"
        let mine = try sqlite.read { db in try db.records(Record.self, sql) }
        let theirs = try postgres.read { db in try db.records(Record.self, sql) }
        #expect(!mine.isEmpty, "\(Record.databaseTableName) has a row to compare")
        #expect(mine == theirs, "\(Record.databaseTableName)")
    }

    /// A row in every table a member's day writes, through the writes the pages make.
    private func fill(_ database: AppDatabase) throws {
        let names = ["mina", "jun", "hana"]
        let ids = try names.map { name in
            var user = User(username: name, email: "\(name)@example.com", passwordHash: "x", displayName: name.capitalized + " 러너")
            user.gender = "female"
            user.birthYear = 1994
            user.job = "developer"
            return try database.accounts.createUser(user).storedID
        }
        let (mina, jun, hana) = (ids[0], ids[1], ids[2])
        _ = try database.sessions.createSession(userID: mina, tokenHash: Data(repeating: 7, count: 32), csrfToken: "csrf", now: now)
        let crew = try database.crews.createCrew(ownerID: mina, fields: CrewFields(
            slug: "han-river", name: "한강 러닝 크루", sport: .running, region: "seoul", description: "**Every** Saturday",
            descriptionHTML: "<p><strong>Every</strong> Saturday</p>", meetingTime: "Sat 7:00", meetingPlace: "Yeouido",
            feeAmount: 10_000, feeCurrency: "KRW", feePeriod: .month, joinPolicy: .open, memberCap: 30), inviteCode: nil, now: now).storedID
        _ = try database.crews.joinCrew(id: crew, userID: jun, inviteCode: nil)
        _ = try database.crews.addCrewComment(crewID: crew, authorID: jun, body: "반가워요", bodyHTML: "<p>반가워요</p>", now: now)
        _ = try database.crews.recordLedgerEntry(LedgerEntry(crewID: crew, kind: .expense, memberID: nil, amount: 25_000, occurredOn: "2026-05-01",
                                                       note: "Water", provider: "", recordedBy: mina, createdAt: now))
        let period = try database.payments.openDuesPeriod(DuesPeriod(crewID: crew, name: "May", amount: 10_000, dueOn: "2026-05-31", createdBy: mina, createdAt: now))
        _ = try database.payments.openPayment(PaymentRequest(crewID: crew, userID: jun, purpose: .dues, duesPeriodID: period.id, provider: "portone",
                                                    amount: 10_000, currency: "KRW", orderName: "May dues", inviteCode: nil,
                                                    publicID: "pay_0123456789abcdef", lifetime: 3_600), now: now)
        let post = try database.posts.createPost(authorID: mina, content: PostContent(body: "새벽 러닝 #한강 with @jun", bodyHTML: "<p>새벽 러닝</p>",
                                                                                tags: ["한강"], mentionedUserIDs: [jun]),
                                           photos: [NewPhoto(fileName: "AAAAAAAAAAAAAAAAAAAAAA.jpg", mediaType: "image/jpeg", width: 1200, height: 800,
                                                             byteCount: 123_456, tone: 0x336699, jpegWidths: [480, 960])], now: now).storedID
        try database.posts.like(postID: post, userID: jun, now: now)
        let comment = try database.comments.addComment(postID: post, authorID: jun, parentID: nil,
                                              content: PostContent(body: "잘했어요!", bodyHTML: "<p>잘했어요!</p>", tags: [], mentionedUserIDs: []), now: now)
        _ = try database.moderation.report(reporterID: hana, target: .comment, targetID: comment.storedID, reason: .spam, note: "", autoHideThreshold: 3, now: now)
        _ = try database.accounts.setRole(.moderator, username: "hana", now: now)
        try database.moderation.moderate(.hide, target: .comment, targetID: comment.storedID, by: hana, reason: "spam", now: now)
        let meetup = try database.meetups.createMeetup(Meetup(
            id: nil, hostID: mina, crewID: crew, crewOnly: false, title: "Evening 5K", description: "", descriptionHTML: "",
            startsAt: now.addingTimeInterval(86_400), durationMinutes: 60, placeName: "Yeouido", address: "서울 영등포구", latitude: 37.5284,
            longitude: 126.9327, placeNote: "", region: "seoul", timeSlot: .afterWork, distanceKm: 5, pace: .average, style: .run,
            capacity: 10, signupMode: .firstCome, deadline: now.addingTimeInterval(80_000), afterParty: true, genderRule: .any,
            minAge: nil, maxAge: nil, jobs: "", acceptedCount: 0, closedAt: nil, sequence: 0, createdAt: now, updatedAt: now),
            groups: [PaceGroup(label: "5:30", capacity: 5, leaderID: mina), PaceGroup(label: "6:30", capacity: 5, leaderID: nil)]).storedID
        _ = try database.meetups.apply(meetupID: meetup, userID: hana, now: now)
        _ = try database.records.createRecord(RunRecord(userID: jun, startedAt: now, distanceMeters: 10_230, durationSeconds: 3_100, elevationGain: 42,
                                                note: "Easy", noteHTML: "<p>Easy</p>", visibility: .crew, meetupID: nil, track: nil,
                                                splits: "305,310", createdAt: now, clientKey: "run-2026-05-28-0700"))
        let retro = try database.retros.createRetro(crewID: crew, by: mina, name: "Spring", startsAt: now.addingTimeInterval(86_400), now: now)
        _ = try database.retros.addFeedback(Feedback(retroID: retro.storedID, authorID: jun, recipientID: mina, kind: .continue, keyword: "pace",
                                              description: "steady", toStart: "", now: now), now: now)
        try database.mail.enqueueMail(OutgoingMail(userID: jun, kind: .digest, sender: "moim@example.org", recipient: "jun@example.com",
                                              message: Array("Subject: hi\r\n\r\nhello".utf8), expiresAt: now.addingTimeInterval(86_400)), now: now)
    }
}
