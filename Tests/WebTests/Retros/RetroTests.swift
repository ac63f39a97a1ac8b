import Formats
import Foundation
import Testing
import HTTP
import Storage
import TestSupport
@testable import Web

@Suite struct RetroTests {
    @Test func feedbackStaysPrivateUntilTheRetroStartsAndThenOnlyTheRecipientSeesIt() throws {
        let site = try TestSite()
        let people = site.members("lead", "author", "recipient", "third", "outsider")
        let (lead, author, recipient, third, outsider) = (people[0], people[1], people[2], people[3], people[4])
        let crewURL = try #require(lead.postMultipart("/crews", [
            ("name", "Retro Runners"), ("slug", ""), ("sport", "running"), ("region", ""), ("description", ""), ("meeting_time", ""),
            ("meeting_place", ""), ("fee_amount", "0"), ("fee_currency", "KRW"), ("fee_period", "month"), ("join_policy", "open"), ("member_cap", ""),
        ], files: [], from: "/crews/new").headers["Location"])
        for member in [author, recipient, third] { member.post(crewURL + "/join", [], from: crewURL) }

        // Only staff create retros.
        let start = LocalDateTime.text(Date().addingTimeInterval(86_400), .current)
        #expect(author.post(crewURL + "/retros", [("name", "November"), ("starts_at", start)], from: crewURL).status == .forbidden)
        let retroURL = try #require(lead.post(crewURL + "/retros", [("name", "November"), ("starts_at", start)], from: crewURL).headers["Location"])

        // Before the start: the author sees what they wrote; nobody else sees it.
        #expect(author.post(retroURL + "/feedback", [("recipient", "recipient"), ("kind", "continue"), ("keyword", "Pacer"),
                                                      ("description", "You kept the group together."), ("to_start", "")], from: retroURL).status == .seeOther)
        #expect(author.post(retroURL + "/feedback", [("recipient", "recipient"), ("kind", "stop"), ("keyword", "way too long keyword"),
                                                      ("description", "x")], from: retroURL).status == .unprocessableContent)
        #expect(author.get(retroURL).bodyText.contains("Pacer"))
        #expect(!recipient.get(retroURL).bodyText.contains("Pacer"))
        // The author changes it, and deletes a second; no one else may do either.
        #expect(author.post(retroURL + "/feedback", [("recipient", "third"), ("kind", "stop"), ("keyword", "Late"),
                                                      ("description", "Start on time."), ("to_start", "")], from: retroURL).status == .seeOther)
        let page = author.get(retroURL).bodyText
        // Each has a form to change it, filled in with what was written, and one to delete it
        #expect(page.contains(#"name="keyword" maxlength="10" required value="Pacer""#) && page.contains(#"<option value="stop" selected>"#))
        var edits: [String] = []
        for match in page.matches(of: /action="(\/crews\/retro-runners\/retros\/\d+\/feedback\/\d+)"/) where !edits.contains(String(match.1)) {
            edits.append(String(match.1))
        }
        #expect(edits.count == 2)
        let (pacer, late) = (edits[0], edits[1])
        #expect(third.post(late, [("delete", "1")], from: retroURL).status == .notFound)
        #expect(author.post(pacer, [("kind", "continue"), ("keyword", "Pacer"), ("description", "You kept us together, always."),
                                    ("to_start", "")], from: retroURL).status == .seeOther)
        #expect(author.post(late, [("delete", "1")], from: retroURL).status == .seeOther)
        #expect(author.get(retroURL).bodyText.contains("You kept us together, always."))
        #expect(!author.get(retroURL).bodyText.contains("Start on time."))
        #expect(!third.get(retroURL).bodyText.contains("Pacer"))
        #expect(outsider.get(retroURL).status == .forbidden)
        #expect(site.browser().get(retroURL).status == .seeOther)

        // The retro starts.
        let retroID = try #require(Int64(retroURL.split(separator: "/").last ?? ""))
        try site.database.moveRetro(id: retroID, startsAt: Date().addingTimeInterval(-60))
        let revealed = recipient.get(retroURL).bodyText
        #expect(revealed.contains("<span class=\"chip keep\">Pacer</span><p>You kept us together, always.</p>"))
        #expect(revealed.contains("You have not written any feedback in this retrospective yet."))
        #expect(!third.get(retroURL).bodyText.contains("Pacer"))
        #expect(outsider.get(retroURL).status == .forbidden)
        #expect(author.post(retroURL + "/feedback", [("recipient", "third"), ("kind", "stop"), ("keyword", "late"), ("description", "Too late.")],
                            from: retroURL).status == .conflict)

        // After it: staff close it; the archive keeps it, for the recipient only.
        #expect(lead.post(retroURL + "/close", [], from: retroURL).status == .seeOther)
        #expect(recipient.get("/u/recipient/feedback").bodyText.contains("<span class=\"chip keep\">Pacer</span>"))
        #expect(third.get("/u/recipient/feedback").status == .notFound)
        #expect(recipient.get(retroURL).bodyText.contains("Pacer"))
    }

    @Test func afterAMeetupThoseWhoAttendedGiveEachOtherFeedbackThatLandsInTheirArchive() throws {
        let site = try TestSite()
        let people = site.members("hostess", "mina", "jun", "hana")
        let (hostess, mina, jun, hana) = (people[0], people[1], people[2], people[3])
        let start = LocalDateTime.text(Date().addingTimeInterval(86_400), .current)
        let url = try #require(hostess.post("/meetups", [
            ("title", "Tempo Tuesday"), ("description", ""), ("starts_at", start), ("duration", "60"), ("place_name", "Track"),
            ("address", ""), ("latitude", ""), ("longitude", ""), ("place_note", ""), ("region", ""), ("time_slot", "afterWork"),
            ("distance", "8"), ("pace", "average"), ("style", "run"), ("capacity", "5"), ("signup_mode", "firstCome"),
            ("deadline", ""), ("gender_rule", "any"),
        ], from: "/meetups/new").headers["Location"])
        let meetupID = try #require(Int64(url.split(separator: "/").last ?? ""))
        for person in [mina, jun, hana] { person.post(url + "/apply", [], from: url) }

        // Not before it ends.
        #expect(hostess.post(url + "/retro", [("name", "Tempo"), ("starts_at", start)], from: url + "/retro").status == .forbidden)

        // It took place two hours ago; Mina and Jun came, Hana did not.
        try site.database.moveMeetup(id: meetupID, startsAt: Date().addingTimeInterval(-7_200), deadline: Date().addingTimeInterval(-7_300))
        let ids = try ["mina", "jun"].map { try #require(try site.database.accounts.user(username: $0)?.id) }
        #expect(hostess.post(url + "/attendance", ids.map { ("present", String($0)) }, from: url).status == .seeOther)
        #expect(mina.get(url).bodyText.contains("href=\"\(url)/retro\""))
        #expect(!hana.get(url).bodyText.contains("href=\"\(url)/retro\""))

        // The host opens it; those who came take part, Hana does not.
        let reveal = LocalDateTime.text(Date().addingTimeInterval(86_400), .current)
        #expect(hostess.post(url + "/retro", [("name", "Tempo Tuesday"), ("starts_at", reveal)], from: url + "/retro").status == .seeOther)
        #expect(hostess.post(url + "/retro", [("name", "Again"), ("starts_at", reveal)], from: url + "/retro").status == .conflict)
        #expect(hana.get(url + "/retro").status == .forbidden)
        let form = mina.get(url + "/retro").bodyText
        #expect(form.contains("<option value=\"jun\">") && form.contains("<option value=\"hostess\">") && !form.contains("<option value=\"hana\">"))
        #expect(mina.post(url + "/retro/feedback", [("recipient", "jun"), ("kind", "continue"), ("keyword", "Steady"),
                                                    ("description", "Even splits all the way."), ("to_start", "")], from: url + "/retro").status == .seeOther)
        #expect(mina.post(url + "/retro/feedback", [("recipient", "hana"), ("kind", "continue"), ("keyword", "Absent"),
                                                    ("description", "x")], from: url + "/retro").status == .unprocessableContent)
        #expect(!jun.get(url + "/retro").bodyText.contains("Even splits"))
        // Until it is revealed she may change what she wrote; no one else may.
        let edit = String(try #require(mina.get(url + "/retro").bodyText.firstMatch(of: /action="(\/meetups\/\d+\/retro\/feedback\/\d+)"/)?.1))
        #expect(jun.post(edit, [("delete", "1")], from: url + "/retro").status == .notFound)
        #expect(mina.post(edit, [("kind", "continue"), ("keyword", "Steady"), ("description", "Even splits, every lap."),
                                 ("to_start", "")], from: url + "/retro").status == .seeOther)
        #expect(mina.get(url + "/retro").bodyText.contains("Even splits, every lap."))

        // Revealed: Jun reads it, and it is in his archive under the meetup's title.
        try site.database.moveRetro(meetupID: meetupID, startsAt: Date().addingTimeInterval(-60))
        #expect(jun.get(url + "/retro").bodyText.contains("<span class=\"chip keep\">Steady</span><p>Even splits, every lap.</p>"))
        let archive = jun.get("/u/jun/feedback").bodyText
        #expect(archive.contains("Steady") && archive.contains("Tempo Tuesday"))

        // Mina may no longer change it once revealed; only the host closes the retro.
        #expect(!mina.get(url + "/retro").bodyText.contains(edit))
        #expect(mina.post(edit, [("delete", "1")], from: url + "/retro").status != .seeOther)
        #expect(jun.post(url + "/retro/close", [], from: url + "/retro").status == .forbidden)
        #expect(hostess.post(url + "/retro/close", [], from: url + "/retro").headers["Location"] == url + "/retro")
        #expect(hana.post(url + "/retro/close", [], from: url + "/retro").status == .forbidden)
    }
}
