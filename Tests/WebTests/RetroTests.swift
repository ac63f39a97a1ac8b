import Foundation
import GRDB
import Testing
import HTTP
@testable import Storage
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
        let start = MeetupForm.local(Date().addingTimeInterval(86_400), .current)
        #expect(author.post(crewURL + "/retros", [("name", "November"), ("starts_at", start)], from: crewURL).status == .forbidden)
        let retroURL = try #require(lead.post(crewURL + "/retros", [("name", "November"), ("starts_at", start)], from: crewURL).headers["Location"])

        // Before the start: the author sees what they wrote; nobody else sees it.
        #expect(author.post(retroURL + "/feedback", [("recipient", "recipient"), ("kind", "continue"), ("keyword", "Pacer"),
                                                      ("description", "You kept the group together."), ("to_start", "")], from: retroURL).status == .seeOther)
        #expect(author.post(retroURL + "/feedback", [("recipient", "recipient"), ("kind", "stop"), ("keyword", "way too long keyword"),
                                                      ("description", "x")], from: retroURL).status == .unprocessableContent)
        #expect(author.get(retroURL).bodyText.contains("Pacer"))
        #expect(!recipient.get(retroURL).bodyText.contains("Pacer"))
        #expect(!third.get(retroURL).bodyText.contains("Pacer"))
        #expect(outsider.get(retroURL).status == .forbidden)
        #expect(site.browser().get(retroURL).status == .seeOther)

        // The retro starts.
        let retroID = try #require(Int64(retroURL.split(separator: "/").last ?? ""))
        try site.database.writer.write { db in
            try db.execute(sql: "UPDATE retros SET startsAt = ? WHERE id = ?", arguments: [Date().addingTimeInterval(-60), retroID])
        }
        let revealed = recipient.get(retroURL).bodyText
        #expect(revealed.contains("<span class=\"chip keep\">Pacer</span><p>You kept the group together.</p>"))
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
}
