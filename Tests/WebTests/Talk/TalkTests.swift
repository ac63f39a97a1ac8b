import Foundation
import HTTP
import Storage
import Testing
@testable import Web

@Suite struct TalkTests {
    /// A crew with `owner` and the other browsers as members; its room's path.
    private func crewRoom(_ site: TestSite, _ people: [Browser], name: String = "Dawn Runners") throws -> String {
        let url = try #require(people[0].startCrew(name))
        for member in people.dropFirst() { member.post(url + "/join", [], from: url) }
        let slug = String(url.dropFirst("/crews/".count))
        let crewID = try #require(try site.database.crews.crew(slug: slug)?.id)
        return Paths.talkRoom(try #require(try site.database.talk.crewRoom(crewID: crewID)).storedID)
    }

    @discardableResult
    private func send(_ browser: Browser, _ room: String, _ body: String, replyTo: Int64? = nil) -> HTTPResponse {
        browser.post(room, [("body", body)] + (replyTo.map { [("reply_to", String($0))] } ?? []), from: room)
    }

    @Test func twoMembersTalkInTheirCrewsRoomAndTheUnreadCountsAgree() throws {
        // Given a crew of mina and jun
        let site = try TestSite()
        let people = site.people("mina", "jun")
        let room = try crewRoom(site, people)
        // When mina writes twice
        #expect(send(people[0], room, "Saturday **7am** at Yeouido?").status == .seeOther)
        #expect(send(people[0], room, "Bring water").status == .seeOther)
        // Then jun sees 2 waiting on every page, and the room in his inbox
        #expect(people[1].get("/").bodyText.contains(#"data-live="talk-unread">2<"#))
        let inbox = people[1].get("/talk").bodyText
        #expect(inbox.contains("Dawn Runners") && inbox.contains("Mina: Bring water"))
        // And opening the room shows the messages, rendered, and reads them
        let page = people[1].get(room).bodyText
        #expect(page.contains("<strong>7am</strong>") && page.contains(#"id="first-unread""#))
        #expect(!people[1].get("/").bodyText.contains(#"data-live="talk-unread""#))
        // Mina, who wrote them, has nothing waiting
        #expect(!people[0].get("/").bodyText.contains(#"data-live="talk-unread""#))
    }

    @Test func aNewcomerFindsTheRoomsHistoryReadAndWhatFollowsWaiting() throws {
        let site = try TestSite()
        let people = site.people("mina", "jun", "ara")
        let room = try crewRoom(site, Array(people.prefix(2)))
        send(people[0], room, "Before Ara came")
        people[2].post("/crews/dawn-runners/join", [], from: "/crews/dawn-runners")
        // The history is there, read: nothing waits, no "new" mark
        let page = people[2].get(room).bodyText
        #expect(page.contains("Before Ara came") && !page.contains(#"id="first-unread""#))
        #expect(!people[2].get("/").bodyText.contains(#"data-live="talk-unread""#))
        // What comes after waits for her
        send(people[1], room, "Welcome, Ara")
        #expect(people[2].get("/").bodyText.contains(#"data-live="talk-unread">1<"#))
        #expect(people[2].get(room).bodyText.contains(#"id="first-unread""#))
    }

    @Test func aRoomIsNotFoundForAnyoneNotInIt() throws {
        let site = try TestSite()
        let people = site.people("mina", "jun", "outsider")
        let room = try crewRoom(site, Array(people.prefix(2)))
        #expect(people[2].get(room).status == .notFound)
        #expect(send(people[2], room, "let me in").status == .notFound)
        #expect(people[2].get("/talk/999999").status == .notFound)
        #expect(people[2].get("/talk/abc").status == .notFound)
        // Signed out: the sign-in page first
        #expect(site.browser().get(room).status == .seeOther)
        #expect(try site.database.talk.messages(roomID: try #require(Int64(room.split(separator: "/").last ?? ""))).isEmpty)
    }

    @Test func aBadMessageComesBackWithTheReasonAndNothingIsStored() throws {
        let site = try TestSite()
        let people = site.people("mina", "jun")
        let room = try crewRoom(site, people)
        let roomID = try #require(Int64(room.split(separator: "/").last ?? ""))
        for (body, reason) in [("   ", "Write something first."), (String(repeating: "a", count: 4_001), "at most 4,000 characters"),
                               ("bell\u{7}", "cannot be shown")] {
            let answer = send(people[0], room, body)
            #expect(answer.status == .unprocessableContent)
            #expect(answer.bodyText.contains(reason))
        }
        // HTML is text, never markup
        send(people[0], room, "<script>alert(1)</script><img src=x onerror=alert(1)>")
        let page = people[1].get(room).bodyText
        #expect(!page.contains("<script>alert(1)") && !page.contains("<img src=x"))
        // A forged form is refused
        #expect(people[0].post(room, [("body", "forged"), ("_csrf", "nope")], withoutToken: ()).status == .forbidden)
        #expect(try site.database.talk.messages(roomID: roomID).count == 1)
    }

    @Test func headingsAndImagesAreNotForChat() throws {
        let site = try TestSite()
        let people = site.people("mina", "jun")
        let room = try crewRoom(site, people)
        send(people[0], room, "# Big news\n\n![map](https://example.com/map.png) and [a link](https://example.com)")
        let page = people[1].get(room).bodyText
        #expect(!page.contains("<h1>Big news") && page.contains("<p>Big news</p>"))
        #expect(!page.contains("<img src=\"https://example.com/map.png\""))
        #expect(page.contains(#"href="https://example.com/map.png">map</a>"#))
    }

    @Test func aReplyQuotesTheMessageAndEditsAndDeletesShow() throws {
        let site = try TestSite()
        let people = site.people("mina", "jun")
        let room = try crewRoom(site, people)
        let first = send(people[0], room, "7am?")
        let firstID = try #require(first.headers["Location"]?.split(separator: "-").last.flatMap { Int64($0) })
        send(people[1], room, "Yes", replyTo: firstID)
        #expect(people[0].get(room).bodyText.contains(#"class="quote" href="\#(room)#message-\#(firstID)"><strong>Mina</strong> 7am?"#))
        // Only its author edits it, and it shows as edited
        #expect(people[1].get("/talk/messages/\(firstID)/edit").status == .forbidden)
        #expect(people[0].post("/talk/messages/\(firstID)/edit", [("body", "7:30am?")], from: "/talk/messages/\(firstID)/edit").status == .seeOther)
        let edited = people[1].get(room).bodyText
        #expect(edited.contains("7:30am?") && edited.contains("edited"))
        // Deleting leaves a tombstone in its place
        #expect(people[1].post("/talk/messages/\(firstID)/delete", [], from: room).status == .forbidden)
        #expect(people[0].post("/talk/messages/\(firstID)/delete", [], from: room).status == .seeOther)
        let after = people[1].get(room).bodyText
        #expect(after.contains("This message was deleted.") && !after.contains("7:30am?"))
    }

    @Test func photosGoWithAMessageAndLeaveWithIt() throws {
        let site = try TestSite()
        let people = site.people("mina", "jun")
        let room = try crewRoom(site, people)
        let roomID = try #require(Int64(room.split(separator: "/").last ?? ""))
        let photo = try fixture("gps.jpg")
        // Two photos and a line; then a photo alone, with no text
        #expect(people[0].postMultipart(room, [("body", "Finish line")], files: [("photos", "a.jpg", photo), ("photos", "b.jpg", photo)], from: room).status == .seeOther)
        #expect(people[0].postMultipart(room, [("body", "")], files: [("photos", "c.jpg", photo)], from: room).status == .seeOther)
        let items = try site.database.talk.messages(roomID: roomID)
        #expect(items.map(\.photos.count) == [2, 1])
        // Jun sees them as a room shows photos, stripped of where they were taken, and the inbox says 📷
        let page = people[1].get(room).bodyText
        #expect(page.contains(#"class="photos message-photos count-2""#) && page.contains("<picture>"))
        #expect(people[1].get("/talk").bodyText.contains("Mina: 📷"))
        let file = try #require(items.first?.photos.first?.fileName)
        let served = people[1].get(Paths.media(file))
        #expect(served.status == .ok && !Array(served.body).contains(subsequence: [0x88, 0x25]))
        // Eleven photos, or one that is not an image: refused, said why, nothing stored
        let eleven = Array(repeating: ("photos", "x.jpg", photo), count: 11)
        let bomb = people[0].postMultipart(room, [("body", "too many")], files: eleven, from: room)
        #expect(bomb.status == .unprocessableContent && bomb.bodyText.contains("at most 10"))
        let fake = people[0].postMultipart(room, [("body", "fake")], files: [("photos", "notes.jpg", try fixture("not-an-image.jpg"))], from: room)
        #expect(fake.status == .unprocessableContent && fake.bodyText.contains("notes.jpg") && fake.bodyText.contains("fake"))
        #expect(try site.database.talk.messages(roomID: roomID).count == 2)
        // Deleted: the message's photos go from the database and the media folder
        #expect(people[0].post(Paths.talkMessage(try #require(items.first?.message.id)) + "/delete", [], from: room).status == .seeOther)
        #expect(try site.database.talk.messages(roomID: roomID).first?.photos.isEmpty == true)
        #expect(people[1].get(Paths.media(file)).status == .notFound)
    }

    @Test func aPlaceIsTappedOnTheMapAndSent() throws {
        var configuration = TestSite.configuration()
        configuration.tiles = TileSource(template: "http://127.0.0.1:9/{z}/{x}/{y}.png", attribution: "© Test tiles")
        let site = try TestSite(configuration: configuration)
        let people = site.people("mina", "jun", "outsider")
        let room = try crewRoom(site, Array(people.prefix(2)))
        let roomID = try #require(Int64(room.split(separator: "/").last ?? ""))
        #expect(people[0].get(room).bodyText.contains(room + "/place"))
        // A tap on the map, with JavaScript off: the page again, the point kept
        let picker = people[0].get(room + "/place").bodyText
        let view = try #require(picker.firstMatch(of: /name="map" value="([^"]+)"/)?.1).description
        let tapped = people[0].post(room + "/place", [("map", view), ("pick.x", "144"), ("pick.y", "144"), ("place_name", "Gate 2")], from: room + "/place")
        #expect(tapped.status == .ok && tapped.bodyText.contains("The pin is at"))
        let latitude = try #require(tapped.bodyText.firstMatch(of: /name="latitude" value="([-0-9.]+)"/)?.1).description
        let longitude = try #require(tapped.bodyText.firstMatch(of: /name="longitude" value="([-0-9.]+)"/)?.1).description
        // Nonsense is refused and nothing is stored
        for (name, lat) in [("Gate 2", "1e400"), ("Gate 2", "nan"), ("", latitude), ("Gate\u{7}2", latitude), (String(repeating: "a", count: 101), latitude)] {
            let refused = people[0].post(room + "/place", [("send", "1"), ("place_name", name), ("latitude", lat), ("longitude", longitude)], from: room + "/place")
            #expect(refused.status == .unprocessableContent && refused.bodyText.contains("give it a name"))
        }
        #expect(try site.database.talk.messages(roomID: roomID).isEmpty)
        // Sent: in the room as a link to its map, for the room's members only
        let sent = people[0].post(room + "/place", [("send", "1"), ("place_name", "Gate 2"), ("latitude", latitude), ("longitude", longitude),
                                                    ("body", "")], from: room + "/place")
        #expect(sent.status == .seeOther)
        let message = try #require(try site.database.talk.messages(roomID: roomID).last?.message)
        #expect(message.placeName == "Gate 2" && message.latitude.map { abs($0 - (Double(latitude) ?? 0)) < 1e-6 } == true)
        #expect(people[1].get(room).bodyText.contains(#"<span aria-hidden="true">📍</span> Gate 2</a>"#))
        #expect(people[1].get("/talk").bodyText.contains("Mina: 📍 Gate 2"))
        let map = people[1].get(Paths.talkMessage(try message.storedID) + "/place")
        #expect(map.status == .ok && map.bodyText.contains("Shared by Mina") && map.bodyText.contains("/tiles/"))
        #expect(people[2].get(Paths.talkMessage(try message.storedID) + "/place").status == .notFound)
        #expect(people[2].get(room + "/place").status == .notFound)
    }

    @Test func withoutMapTilesThereIsNoPlaceToShare() throws {
        let site = try TestSite()
        let people = site.people("mina", "jun")
        let room = try crewRoom(site, people)
        #expect(!people[0].get(room).bodyText.contains(room + "/place"))
        #expect(people[0].get(room + "/place").status == .notFound)
    }

    @Test func aDirectMessageFromAStrangerWaitsInRequests() throws {
        let site = try TestSite()
        let people = site.people("mina", "jun")
        // Mina starts a conversation from Jun's profile
        let started = people[0].post("/u/jun/talk", [], from: "/u/jun")
        let room = try #require(started.headers["Location"]?.split(separator: "#").first.map(String.init))
        #expect(send(people[0], room, "Hi Jun, are you joining Saturday?").status == .seeOther)
        // Jun does not know her: it is a request, not in his inbox
        #expect(!people[1].get("/talk").bodyText.contains("Are you joining"))
        let requests = people[1].get("/talk?requests=1").bodyText
        #expect(requests.contains("Mina") && requests.contains("Hi Jun"))
        #expect(people[1].get(room).bodyText.contains("Accept"))
        #expect(people[1].post(room + "/accept", [], from: room).status == .seeOther)
        #expect(send(people[1], room, "Yes!").status == .seeOther)
        #expect(people[0].get("/talk").bodyText.contains("Jun: Yes!"))
    }

    @Test func nobodyReachesAMemberWhoSaidSoOrWhoBlockedThem() throws {
        let site = try TestSite()
        let people = site.people("mina", "jun", "ara")
        #expect(people[1].post("/settings/talk", [("who", "nobody")], from: "/settings").status == .seeOther)
        #expect(people[0].post("/u/jun/talk", [], from: "/u/jun").status == .forbidden)
        // A conversation that was open closes when one blocks the other
        let started = people[0].post("/u/ara/talk", [], from: "/u/ara")
        let room = try #require(started.headers["Location"]?.split(separator: "#").first.map(String.init))
        send(people[0], room, "Hi Ara")
        people[2].post(room + "/accept", [], from: room)
        people[2].post("/u/mina/block", [], from: "/u/mina")
        #expect(send(people[0], room, "Hello?").status == .forbidden)
        #expect(send(people[2], room, "Bye").status == .forbidden)
        #expect(people[0].post("/u/ara/talk", [], from: "/u/ara").status == .forbidden)
        #expect(people[0].post("/settings/talk", [("who", "everyone!")], from: "/settings").status == .badRequest)
    }

    @Test func aGroupIsStartedByUsernamesAndCanBeLeftAndMuted() throws {
        let site = try TestSite()
        let people = site.people("mina", "jun", "ara")
        #expect(people[0].post("/talk/new", [("usernames", "@jun, ara nobody"), ("name", "Marathon")], from: "/talk/new").bodyText.contains("no member @nobody"))
        let made = people[0].post("/talk/new", [("usernames", "@jun, ara"), ("name", "Marathon")], from: "/talk/new")
        let room = try #require(made.headers["Location"]?.split(separator: "#").first.map(String.init))
        #expect(people[0].get(room).bodyText.contains("<h1>Marathon</h1>"))
        // Muted: left out of the header's count
        people[1].post(room + "/accept", [], from: room)
        people[1].post(room + "/mute", [("for", "day")], from: room)
        send(people[0], room, "Long run Sunday")
        #expect(!people[1].get("/").bodyText.contains(#"data-live="talk-unread""#))
        #expect(people[1].get(room).bodyText.contains("Muted until"))
        #expect(people[1].post(room + "/mute", [("for", "forever-and-ever")], from: room).status == .badRequest)
        // Leaving a group takes it out of the inbox
        #expect(people[2].post(room + "/leave", [], from: room).status == .seeOther)
        #expect(people[2].get(room).status == .notFound)
    }

    @Test func staffAddTopicRoomsForTheWholeCrewAndArchiveThem() throws {
        let site = try TestSite()
        let people = site.people("mina", "jun")
        _ = try crewRoom(site, people, name: "Trail Crew")
        #expect(people[1].post("/crews/trail-crew/rooms", [("name", "장비 나눔")], from: "/crews/trail-crew").status == .forbidden)
        let made = people[0].post("/crews/trail-crew/rooms", [("name", "장비 나눔")], from: "/crews/trail-crew")
        let room = try #require(made.headers["Location"])
        #expect(send(people[1], room, "Selling my old vest").status == .seeOther)
        #expect(people[0].post(room + "/archive", [], from: room).status == .seeOther)
        #expect(send(people[1], room, "Still there?").status == .notFound)
        #expect(people[1].get(room).bodyText.contains("archived"))
    }

    @Test func aLongWaitOpensAtTheFirstUnreadMessage() throws {
        let site = try TestSite()
        let people = site.people("mina", "jun")
        let room = try crewRoom(site, people)
        let roomID = try #require(Int64(room.split(separator: "/").last ?? ""))
        let minaID = try #require(try site.database.accounts.user(username: "mina")?.id)
        let juns = try #require(try site.database.accounts.user(username: "jun")?.id)
        for index in 1...40 {
            _ = try site.database.talk.send(Message(roomID: roomID, authorID: minaID, body: "old \(index)", bodyHTML: "<p>old \(index)</p>", createdAt: Date()))
        }
        // Jun read them all, then 70 more came
        let page = people[1].get(room).bodyText
        #expect(page.contains("<p>old 40</p>") && !page.contains("Older messages"))
        for index in 1...70 {
            _ = try site.database.talk.send(Message(roomID: roomID, authorID: minaID, body: "new \(index)", bodyHTML: "<p>new \(index)</p>", createdAt: Date()))
        }
        let opened = people[1].get(room).bodyText
        #expect(opened.contains("<p>new 1</p>") && !opened.contains("<p>old 40</p>") && opened.contains("Newer messages") && opened.contains("Older messages"))
        #expect(try site.database.talk.unreadCount(userID: juns) == 20)
    }

    @Test func aMeetupsTalkIsARoomOfThoseGoingWithTheSameCounts() throws {
        let site = try TestSite()
        let people = site.people("hostess", "mina", "jun")
        let start = Date().addingTimeInterval(3 * 86_400)
        let url = try #require(people[0].post("/meetups", [
            ("title", "Dawn 10K"), ("starts_at", LocalDateTime.text(start, .current)), ("duration", "60"), ("place_name", "Yeouido Park"),
            ("time_slot", "afterWork"), ("pace", "average"), ("style", "run"), ("capacity", "1"), ("signup_mode", "firstCome"), ("gender_rule", "any"),
        ], from: "/meetups/new").headers["Location"])
        people[1].post(url + "/apply", [], from: url)  // the one place
        people[2].post(url + "/apply", [], from: url)  // the waitlist
        // The host writes on the meetup's page: it is the meetup's room, in Mina's inbox by its title
        people[0].post(url + "/comments", [("body", "Gate 2 at 6:30")], from: url)
        let inbox = people[1].get("/talk").bodyText
        #expect(inbox.contains("Dawn 10K") && inbox.contains("Hostess: Gate 2 at 6:30"))
        #expect(people[1].get("/").bodyText.contains(#"data-live="talk-unread">1<"#))
        let room = try #require(inbox.firstMatch(of: /href="(\/talk\/\d+)"/)?.1).description
        let page = people[1].get(room).bodyText
        #expect(page.contains("Gate 2 at 6:30") && page.contains(url))
        // Jun, waiting for a place, is not in it
        #expect(people[2].get(room).status == .notFound)
        #expect(!people[2].get("/talk").bodyText.contains("Dawn 10K"))
        // Mina gives up her place: Jun gets it, and the room with it
        people[1].post(url + "/cancel", [], from: url)
        #expect(people[1].get(room).status == .notFound)
        #expect(people[2].get(room).bodyText.contains("Gate 2 at 6:30"))
        // A meetup's room is left by leaving the meetup, not here
        #expect(people[0].post(room + "/leave", [], from: room).status == .notFound)
    }
}
