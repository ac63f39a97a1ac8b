import Foundation
import Testing
import TestSupport
@testable import Storage

/// What live pages stream: a crew's guestbook after a message, oldest first, to its members.
@Suite struct LiveQueriesTests {
    @Test func theGuestbookStreamsWhatCameAfterToMembersOnly() throws {
        let database = try TestDatabase.fresh()
        let ids = try database.members("owner", "mina", "jun")
        let crew = try database.crews.createCrew(ownerID: ids[0], fields: CrewFields(
            slug: "talkers", name: "Talkers", sport: .running, region: nil, description: "", descriptionHTML: "", meetingTime: "",
            meetingPlace: "", feeAmount: 0, feeCurrency: "KRW", feePeriod: .month, joinPolicy: .open, memberCap: nil), inviteCode: nil).storedID
        _ = try database.crews.joinCrew(id: crew, userID: ids[1], inviteCode: nil)
        #expect(try database.live.lastGuestbookID(crewID: crew) == 0)
        let first = try database.crews.addCrewComment(crewID: crew, authorID: ids[1], body: "one", bodyHTML: "<p>one</p>").storedID
        _ = try database.crews.addCrewComment(crewID: crew, authorID: ids[0], body: "two", bodyHTML: "<p>two</p>")
        _ = try database.crews.addCrewComment(crewID: crew, authorID: ids[1], body: "three", bodyHTML: "<p>three</p>")
        #expect(try database.live.guestbook(crewID: crew, after: first).map(\.authorUsername) == ["owner", "mina"])
        #expect(try database.live.guestbook(crewID: crew, after: 0, limit: 1).count == 1)
        #expect(try database.live.guestbookReaders(crewID: crew) == [ids[0], ids[1]])
        #expect(try database.live.lastGuestbookID(crewID: crew) > first)
    }
}
