import Foundation
import Testing
import HTTP
@testable import Storage
@testable import Web

@Suite struct FeedTests {
    /// Sixty notifications: the page shows fifty and marks those read, the rest wait (and the
    /// bell says so) until the older page shows them.
    @Test func notificationsPageBackAndOnlyThoseShownAreMarkedRead() throws {
        let site = try TestSite()
        let people = site.members("mina", "jun")
        let (mina, minaID, junID) = (people[0], try #require(try site.database.accounts.user(username: "mina")?.id),
                                     try #require(try site.database.accounts.user(username: "jun")?.id))
        try site.database.write { db in
            for number in 1...60 {
                try site.database.insertNotification(db, userID: minaID, kind: .meetupChanged, actorID: junID, postID: nil, commentID: nil,
                                                     detail: "Change #\(number).", now: Date().addingTimeInterval(Double(number - 100)))
            }
        }
        let unread = { try site.database.readRows { db in try db.value("SELECT count(*) FROM notifications WHERE userID = ? AND readAt IS NULL", [minaID], as: Int.self) } }
        #expect(mina.get("/").bodyText.contains(#"<span class="bubble">60</span>"#))

        let first = mina.get("/notifications").bodyText
        #expect(first.contains("Change #60.") && first.contains("Change #11.") && !first.contains("Change #10."))
        #expect(try unread() == 10)
        #expect(first.contains(#"<span class="bubble">10</span>"#), "the bell counts what is still unread")
        let older = try #require(first.firstMatch(of: /href="(\/notifications\?before=\d+)" rel="next"/)?.1)

        let second = mina.get(String(older)).bodyText
        #expect(second.contains("Change #10.") && second.contains("Change #1.") && !second.contains("Change #11."))
        #expect(!second.contains("rel=\"next\""))
        #expect(try unread() == 0)
        // Hostile cursors are the first page
        for before in ["1e400", "-1", "abc", String(repeating: "9", count: 30)] {
            #expect(mina.get("/notifications?before=" + before).status == .ok)
        }
    }

    @Test func followsOfOnePersonAreOneLineAndOtherNotificationsStayApart() throws {
        let site = try TestSite()
        let people = site.members("mina", "jun", "hana", "sora", "dawn")
        let mina = people[0]
        for follower in people[1...] { follower.post("/u/mina/follow", [], from: "/u/mina") }
        people[1].post("/u/mina/unfollow", [], from: "/u/mina")
        people[1].post("/u/mina/follow", [], from: "/u/mina")
        let post = try #require(mina.post("/posts", [("body", "Long run today")], from: "/posts/new").headers["Location"])
        people[2].post(post + "/comments", [("body", "Nice!")], from: post)
        let page = mina.get("/notifications").bodyText
        // Four people (Jun twice) in one line, named by the newest; the comment on its own line.
        #expect(page.contains("and 3 others started following you."))
        #expect(page.components(separatedBy: "<li class=\"notification").count == 3)
        #expect(page.contains("</strong> commented on your post.</span>") && page.contains("<span class=\"notification-preview\">Nice!</span>"))
    }

    @Test func twoMembersFollowPostLikeCommentAndAreNotified() throws {
        // Given Mina and Jun, and Jun follows Mina
        let site = try TestSite()
        let mina = site.browser(), jun = site.browser()
        mina.signUp(username: "mina", displayName: "Mina")
        jun.signUp(username: "jun", displayName: "Jun")
        #expect(jun.post("/u/mina/follow", [], from: "/u/mina").status == .seeOther)

        // When Mina posts a photo with a hashtag
        let created = mina.postMultipart("/posts", [("body", "Sunrise run #한강러닝 with @jun")],
                                         files: [("photos", "run.jpg", try fixture("gps.jpg"))], from: "/posts/new")
        #expect(created.status == .seeOther)
        let postURL = try #require(created.headers["Location"])

        // Then Jun sees it in his feed, with the photo and a working tag link
        let feed = jun.get("/").bodyText
        #expect(feed.contains("Sunrise run"))
        #expect(feed.contains(#"href="/tags/%ED%95%9C%EA%B0%95%EB%9F%AC%EB%8B%9D""#))
        // Upright (the camera stored it sideways), its size given so the page does not jump.
        let photo = try #require(feed.firstMatch(of: /<img src="(\/media\/[A-Za-z0-9_-]{22}\.jpg)" srcset="[^"]+" sizes="[^"]+" width="48" height="64"/)?.1)
        let image = jun.get(String(photo))
        #expect(image.status == .ok)
        #expect(image.headers["Content-Type"] == "image/jpeg")
        #expect(image.headers["X-Content-Type-Options"] == "nosniff")
        #expect(image.headers["Cache-Control"]?.contains("immutable") == true)
        #expect(!image.body.contains(subsequence: Array("PhoneMaker".utf8)))
        // The mention shows the start of the post it is in, the name in bold.
        let mention = jun.get("/notifications").bodyText
        #expect(mention.contains("<strong>Mina</strong> mentioned you."))
        #expect(mention.contains("<span class=\"notification-preview\">Sunrise run #한강러닝 with @jun</span>"))

        // When Jun likes it twice and comments
        jun.post(postURL + "/like", [], from: postURL)
        jun.post(postURL + "/like", [], from: postURL)
        let comment = jun.post(postURL + "/comments", [("body", "Nice pace!")], from: postURL)
        #expect(comment.status == .seeOther)

        // Then the post counts one like and one comment, and Mina is notified
        let page = mina.get(postURL).bodyText
        #expect(page.contains("Nice pace!"))
        #expect(page.contains(#"<span class="count">1</span>"#))
        #expect(mina.get("/").bodyText.contains(#"class="bubble">2<"#))
        let notifications = mina.get("/notifications").bodyText
        #expect(notifications.contains("<strong>Jun</strong> started following you."))
        #expect(notifications.contains("<strong>Jun</strong> commented on your post.</span>"))
        #expect(notifications.contains("<span class=\"notification-preview\">Nice pace!</span>"))
        #expect(notifications.components(separatedBy: "class=\"notification unread\"").count == 3)
        #expect(!mina.get("/").bodyText.contains(#"class="bubble""#))
        #expect(!mina.get("/notifications").bodyText.contains("class=\"notification unread\""))
    }

    @Test func tagsAreFoundWhateverTheirCase() throws {
        let site = try TestSite()
        let mina = site.browser()
        mina.signUp(username: "mina")
        mina.post("/posts", [("body", "Long #Run today")], from: "/posts/new")
        #expect(mina.get("/tags/run").bodyText.contains("Long"))
        #expect(mina.get("/tags/RUN").bodyText.contains("Long"))
        #expect(mina.get("/tags/run/feed.atom").bodyText.contains("<title>Long #Run today</title>"))
        #expect(mina.get("/tags/%3Cscript%3E").status == .notFound)
    }
}
