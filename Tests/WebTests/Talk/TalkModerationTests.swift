import Foundation
import HTTP
import Storage
import Testing
@testable import Web

/// Moderation in rooms: a message reported with the messages around it, answered by the
/// crew's staff or the site's; an admin deleting a member's messages everywhere; silenced
/// members and new accounts held back.
@Suite struct TalkModerationTests {
    /// A crew of `people` (the first its owner); its room's id.
    private func crewRoom(_ site: TestSite, _ people: [Browser]) throws -> Int64 {
        let url = try #require(people[0].startCrew("Dawn Runners"))
        for member in people.dropFirst() { member.post(url + "/join", [], from: url) }
        let crewID = try #require(try site.database.crews.crew(slug: "dawn-runners")?.id)
        return try #require(try site.database.talk.crewRoom(crewID: crewID)).storedID
    }

    private func newest(_ site: TestSite, _ roomID: Int64) throws -> Int64 {
        try #require(try site.database.talk.messages(roomID: roomID).last?.message.id)
    }

    @Test func aReportedMessageReachesTheCrewsStaffWithItsContext() throws {
        let (site, admin, _, mina, jun) = try TestSite.staffed()
        let ara = site.people("ara")[0], outsider = site.people("outsider")[0]
        let roomID = try crewRoom(site, [mina, jun, ara])
        let room = Paths.talkRoom(roomID)
        jun.post(room, [("body", "Who is running Saturday?")], from: room)
        ara.post(room, [("body", "Buy cheap shoes at spam.example")], from: room)
        let spam = try newest(site, roomID)
        jun.post(room, [("body", "Please stop")], from: room)

        // Jun sees Report beside Ara's message, not beside his own
        let page = jun.get(room).bodyText
        #expect(page.contains("target_type=message&amp;target_id=\(spam)"))
        #expect(!page.contains("target_id=\(spam - 1)&"))
        // Someone outside the room learns nothing: 404 for the form and the report alike
        #expect(outsider.get("/reports/new?target_type=message&target_id=\(spam)").status == .notFound)
        let forged = [("target_type", "message"), ("target_id", String(spam)), ("reason", "spam"), ("return_to", room)]
        #expect(outsider.post("/reports", forged, from: "/").status == .notFound)
        #expect(jun.get("/reports/new?target_type=message&target_id=\(spam)").bodyText.contains("Buy cheap shoes"))
        #expect(jun.post("/reports", forged, from: room).status == .seeOther)
        #expect(jun.post("/reports", forged, from: room).status == .conflict)

        // Mina, the crew's owner, is told on the crew page and sees it with what came before and after
        #expect(mina.get("/crews/dawn-runners").bodyText.contains("Reported in the rooms (1)"))
        let reports = mina.get("/crews/dawn-runners/reports").bodyText
        #expect(reports.contains("Who is running Saturday?") && reports.contains("Please stop"))
        #expect(reports.contains(#"<li class="reported"><strong>Ara</strong> Buy cheap shoes at spam.example</li>"#))
        // A member who is not staff may not look
        #expect(jun.get("/crews/dawn-runners/reports").status == .forbidden)
        #expect(jun.post("/crews/dawn-runners/reports/\(spam)", [("action", "delete")], from: "/crews/dawn-runners").status == .forbidden)
        // The site's review queue has it too, with the same context
        #expect(admin.get("/admin/reports").bodyText.contains("Please stop"))

        // Mina deletes it: a tombstone in the room, the report answered, the log written
        #expect(mina.post("/crews/dawn-runners/reports/\(spam)", [("action", "delete")], from: "/crews/dawn-runners/reports").status == .seeOther)
        #expect(try site.database.talk.message(id: spam)?.deletedAt != nil)
        #expect(try site.database.talk.message(id: spam)?.body == "")
        #expect(mina.get("/crews/dawn-runners/reports").bodyText.contains("Nothing is reported"))
        #expect(try site.database.moderation.openReportCount() == 0)
        #expect(try site.database.moderation.moderationLog().first?.entry.targetType == "message")
        // A made-up id, or a message of another room, is not theirs to answer
        #expect(mina.post("/crews/dawn-runners/reports/999999", [("action", "dismiss")], from: "/").status == .notFound)
        #expect(mina.post("/crews/dawn-runners/reports/\(spam)", [("action", "hide")], from: "/").status == .badRequest)
    }

    @Test func anAdminDeletesAMembersMessagesEverywhereAtOnce() throws {
        let (site, admin, moderator, mina, jun) = try TestSite.staffed()
        let roomID = try crewRoom(site, [mina, jun])
        let room = Paths.talkRoom(roomID)
        mina.post(room, [("body", "spam one")], from: room)
        let direct = try #require(mina.post(Paths.talkWith("jun"), [], from: "/u/jun").headers["Location"]).split(separator: "#")[0]
        mina.post(String(direct), [("body", "spam two")], from: String(direct))
        jun.post(room, [("body", "a real question")], from: room)
        let junsID = try #require(try site.database.accounts.user(username: "jun")?.id)
        #expect(try site.database.talk.unreadCount(userID: junsID) == 1)

        // A moderator is not offered it and cannot do it; a reason is needed
        #expect(!moderator.get("/admin/users/mina").bodyText.contains("/admin/users/mina/messages"))
        #expect(moderator.post("/admin/users/mina/messages", [("reason", "spam")], from: "/admin/users/mina").status == .notFound)
        #expect(admin.post("/admin/users/mina/messages", [("reason", " ")], from: "/admin/users/mina").status == .unprocessableContent)
        #expect(admin.get("/admin/users/mina").bodyText.contains("Delete all their messages"))
        #expect(admin.post("/admin/users/mina/messages", [("reason", "spam")], from: "/admin/users/mina").status == .seeOther)

        // Every one of hers is a tombstone; Jun's stays; nothing of hers waits for Jun
        let messages = try site.database.talk.messages(roomID: roomID).map(\.message)
        #expect(messages.filter { $0.body == "spam one" }.isEmpty && messages.contains { $0.body == "a real question" })
        #expect(try site.database.talk.unreadCount(userID: junsID) == 0)
        #expect(jun.get(String(direct)).bodyText.contains("This message was deleted."))
        #expect(try site.database.moderation.moderationLog().first?.entry.action == "removeMessages")
    }

    @Test func silencedMembersAndNewAccountsAreHeldBack() throws {
        var configuration = TestSite.configuration()
        configuration.newAccountLimits.days = 3
        configuration.newAccountLimits.perDay[.messages] = 2
        let (site, admin, _, mina, jun) = try TestSite.staffed(configuration)
        let roomID = try crewRoom(site, [mina, jun])
        let room = Paths.talkRoom(roomID)
        #expect(jun.post(room, [("body", "one")], from: room).status == .seeOther)
        #expect(jun.post(room, [("body", "two")], from: room).status == .seeOther)
        let third = jun.post(room, [("body", "three")], from: room)
        #expect(third.status == .tooManyRequests && third.headers["Retry-After"] != nil)
        #expect(admin.post("/admin/users/mina/sanction", [("action", "silence"), ("reason", "cool down"), ("days", "1")], from: "/admin/users/mina").status == .seeOther)
        #expect(mina.post(room, [("body", "still here")], from: room).status == .forbidden)
        #expect(!mina.get(room).bodyText.contains(#"id="message-body""#))
        #expect(try site.database.talk.messages(roomID: roomID).map(\.message.body) == ["one", "two"])
    }
}
