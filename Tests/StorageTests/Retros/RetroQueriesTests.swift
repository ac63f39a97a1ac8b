import Foundation
import Testing
import TestSupport
@testable import Storage

/// A crew's retrospective: feedback written before it starts, read by its recipient after.
@Suite struct RetroQueriesTests {
    @Test func feedbackIsWrittenBeforeTheStartAndReadOnlyByItsRecipientAfter() throws {
        let database = try TestDatabase.fresh()
        let ids = try database.members("lead", "mina", "jun", "outsider")
        let crew = try database.crews.createCrew(ownerID: ids[0], fields: CrewFields(
            slug: "retro", name: "Retro", sport: .running, region: nil, description: "", descriptionHTML: "", meetingTime: "",
            meetingPlace: "", feeAmount: 0, feeCurrency: "KRW", feePeriod: .month, joinPolicy: .open, memberCap: nil), inviteCode: nil).storedID
        for member in [ids[1], ids[2]] { _ = try database.crews.joinCrew(id: crew, userID: member, inviteCode: nil) }
        let now = Date(timeIntervalSince1970: 1_780_000_000)
        #expect(throws: StorageError.forbidden) { try database.retros.createRetro(crewID: crew, by: ids[1], name: "No", startsAt: now, now: now) }
        let retro = try database.retros.createRetro(crewID: crew, by: ids[0], name: "Spring", startsAt: now.addingTimeInterval(3_600), now: now)
        let id = try retro.storedID
        _ = try database.retros.addFeedback(Feedback(retroID: id, authorID: ids[1], recipientID: ids[2], kind: .continue, keyword: "Pacer",
                                                     description: "Steady", toStart: "", now: now), now: now)
        // Someone outside the crew takes no part
        #expect(throws: StorageError.forbidden) {
            try database.retros.addFeedback(Feedback(retroID: id, authorID: ids[3], recipientID: ids[2], kind: .stop, keyword: "x",
                                                     description: "", toStart: "", now: now), now: now)
        }
        // Before the start the recipient reads nothing; after, what was written to them
        #expect(try database.retros.feedbackReceived(retroID: id, recipientID: ids[2], now: now).isEmpty)
        let after = now.addingTimeInterval(3_601)
        #expect(try database.retros.feedbackReceived(retroID: id, recipientID: ids[2], now: after).map(\.feedback.keyword) == ["Pacer"])
        #expect(try database.retros.feedbackReceived(retroID: id, recipientID: ids[1], now: after).isEmpty)
        // Written ones cannot change once it started
        let written = try #require(try database.retros.feedbackWritten(retroID: id, authorID: ids[1]).first?.feedback.id)
        #expect(throws: StorageError.forbidden) {
            try database.retros.changeFeedback(id: written, authorID: ids[1], keyword: "Late", description: "", toStart: "", kind: .stop,
                                               delete: false, now: after)
        }
        try database.retros.closeRetro(id: id, by: ids[0], now: after)
        #expect(try database.retros.retro(id: id)?.closedAt != nil)
    }
}
