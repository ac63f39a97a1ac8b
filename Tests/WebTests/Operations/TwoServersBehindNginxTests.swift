import Foundation
import Testing
import TestSupport
import Storage
@testable import Web

/// The real thing: Debian's nginx in front of two `moim serve` processes on one PostgreSQL
/// database and one S3 bucket (moto), with one mail server, as two machines would run them.
@Suite(.serialized, .enabled(if: TestDatabase.onPostgres, "two servers share PostgreSQL (TEST_DB=postgres)"))
struct TwoServersBehindNginxTests {
    typealias Running = SupervisedServerTests.Running

    /// Hostess's lottery, already past its deadline, with three entrants whose addresses are
    /// verified; forty posts of hers to like.
    private func prepare(_ url: String) throws -> (meetup: String, entrants: [String], posts: [Int64]) {
        let site = try TestSite(database: try AppDatabase.open(postgres: url, connections: 4))
        defer { try? site.database.close() }
        let people = site.members("hostess", "ara", "bora", "chan")
        let start = LocalDateTime.text(Date().addingTimeInterval(3 * 86_400), .current)
        let fields = [
            ("title", "Lottery 10K"), ("description", "Drawn by lot."), ("starts_at", start), ("duration", "60"),
            ("place_name", "Yeouido Park"), ("address", "Seoul"), ("latitude", "37.5283"), ("longitude", "126.9327"),
            ("place_note", ""), ("region", "seoul"), ("time_slot", "afterWork"), ("distance", "10"), ("pace", "average"),
            ("style", "run"), ("capacity", "2"), ("signup_mode", "lottery"), ("gender_rule", "any"),
            ("deadline", LocalDateTime.text(Date().addingTimeInterval(86_400), .current)),
        ]
        let meetup = try #require(people[0].post("/meetups", fields, from: "/meetups/new").headers["Location"])
        for entrant in people[1...] { #expect(entrant.post(meetup + "/apply", [], from: meetup).status == .seeOther) }
        let id = try #require(Int64(meetup.split(separator: "/").last ?? ""))
        let hostess = try #require(try site.database.accounts.user(username: "hostess")?.id)
        var posts: [Int64] = []
        for number in 1...40 {
            let content = PostContent(body: "Run \(number)", bodyHTML: "<p>Run \(number)</p>", tags: [], mentionedUserIDs: [])
            posts.append(try #require(try site.database.posts.createPost(authorID: hostess, content: content, photos: []).id))
        }
        #expect(try site.database.applicationCount(meetupID: id) == 3)
        try site.database.moveMeetup(id: id, deadline: Date().addingTimeInterval(-60))
        try site.database.verifyEveryAddress()
        return (meetup, ["ara", "bora", "chan"], posts)
    }

    /// Posts to like, handed out one at a time to several threads, and what became of each.
    private final class Likes: @unchecked Sendable {
        private let lock = NSLock()
        private var waiting: [Int64]
        private var answered: [Int64: Bool] = [:]

        init(_ posts: [Int64]) { waiting = posts.reversed() }

        func next() -> Int64? { lock.withLock { waiting.popLast() } }
        func record(_ post: Int64, acknowledged: Bool) { lock.withLock { answered[post] = acknowledged } }
        var done: Int { lock.withLock { answered.count } }
        var acknowledged: Set<Int64> { lock.withLock { Set(answered.filter(\.value).keys) } }
    }

    private final class Started: @unchecked Sendable {
        let lock = NSLock()
        var servers: [Running?] = [nil, nil]
    }

    @Test func twoServersBehindNginxServeOneSite() throws {
        let url = try TestDatabase.freshPostgresURL()
        let bucket = try TestObjectStore.freshBucket()
        let endpoint = try #require(ProcessInfo.processInfo.environment["MOIM_TEST_S3_ENDPOINT"])
        let sink = try MailSink()
        let prepared = try prepare(url)

        // Both start at once: both sweep at start, so the draw that is due races.
        let arguments = [
            "--database", url, "--media-url", bucket, "--s3-endpoint", endpoint, "--trusted-proxy", "127.0.0.1",
            "--smtp-url", sink.url, "--base-url", "https://localhost",
        ]
        let environment = [
            "AWS_ACCESS_KEY_ID": TestObjectStore.credentials.accessKeyID,
            "AWS_SECRET_ACCESS_KEY": TestObjectStore.credentials.secretAccessKey,
        ]
        let started = Started()
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            let server = try? Running(arguments, environment: environment)
            started.lock.withLock { started.servers[index] = server }
        }
        let first = try #require(started.servers[0]), second = try #require(started.servers[1])
        #expect(first.healthy() && second.healthy())
        let nginx = try NginxProxy(upstreams: [first.port, second.port], data: NSTemporaryDirectory() + "moim-nginx-\(UUID().uuidString)")
        let ports = Set([String(first.port), String(second.port)])
        let jar = nginx.data + "/jar"

        // Mina signs up through nginx; her session holds on whichever server answers.
        let form = try nginx.curl(["/signup", "-c", jar])
        let token = try #require(form.body.firstMatch(of: /name="_csrf" value="([^"]+)"/)?.1)
        let signup = try nginx.curl(["/signup", "-b", jar, "-c", jar, "--data",
                                     "_csrf=\(token)&username=mina&email=mina%40example.com&password=correct+horse+battery"
                                     + "&password_confirmation=correct+horse+battery&display_name=Mina" + Agreed.query])
        #expect(signup.status == 303)
        for _ in 0..<6 {
            let settings = try nginx.curl(["/settings", "-b", jar])
            #expect(settings.status == 200 && settings.body.contains("mina@example.com"))
        }
        #expect(Set(nginx.upstreams()).isSuperset(of: ports), "requests landed on both servers")

        // A photo posted through one server is served by the other (from the bucket).
        let photo = TestSite.root + "/Tests/WebTests/Fixtures/gps.jpg"
        let newPost = try nginx.curl(["/posts/new", "-b", jar])
        let postToken = try #require(newPost.body.firstMatch(of: /name="_csrf" value="([^"]+)"/)?.1)
        let posted = try nginx.curl(["/posts", "-b", jar, "-F", "_csrf=\(postToken)", "-F", "body=Sunrise run", "-F", "photos=@\(photo);type=image/jpeg"])
        #expect(posted.status == 303)
        let postPath = try #require(posted.headers.firstMatch(of: /(?i)location: (\S+)/)?.1)
        let page = try nginx.curl([String(postPath), "-b", jar])
        let image = try #require(page.body.firstMatch(of: /src="(\/media\/[A-Za-z0-9_-]{22}\.jpg)"/)?.1)
        for server in [first, second] {
            let answer = try server.send("GET \(image) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            #expect(answer.hasPrefix("HTTP/1.1 200") && answer.contains("Content-Type: image/jpeg"))
        }
        #expect(try nginx.curl([String(image)]).status == 200)

        // Five failed logins, spread over both servers, lock the account on both.
        func logIn(_ password: String, on server: Running) throws -> String {
            let form = try server.send("GET /login HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            let cookie = String(form.firstMatch(of: /Set-Cookie: (moim_csrf=[^;]+)/)?.1 ?? "")
            let token = String(form.firstMatch(of: /name="_csrf" value="([^"]+)"/)?.1 ?? "")
            let body = "_csrf=\(token)&login=mina&password=\(password)"
            return try server.send("POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: \(cookie)\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
        }
        for attempt in 0..<5 {
            #expect(try logIn("wrong+\(attempt)", on: attempt.isMultiple(of: 2) ? first : second).hasPrefix("HTTP/1.1 422"))
        }
        #expect(try logIn("correct+horse+battery", on: first).hasPrefix("HTTP/1.1 429"))
        #expect(try logIn("correct+horse+battery", on: second).hasPrefix("HTTP/1.1 429"))

        // The draw happened once, and each entrant got one mail about it.
        func mails(to username: String) -> Int { sink.messages().filter { $0.recipient == "\(username)@example.com" }.count }
        _ = sink.waitForMessages(4, timeout: 15)
        Thread.sleep(forTimeInterval: 2)
        for entrant in prepared.entrants { #expect(mails(to: entrant) == 1, "\(entrant)") }
        let database = try AppDatabase.open(postgres: url, connections: 2)
        defer { try? database.close() }
        #expect(try database.notificationCount(kinds: [.meetupLotteryWon, .meetupLotteryLost]) == 3)

        // One server dies (kill -9, both its processes) while Mina likes posts through nginx
        // from four connections at once: every like she was told about is stored, at most the
        // four in flight are lost, and the other server carries on.
        let likeToken = try #require(try nginx.curl(["/settings", "-b", jar]).body.firstMatch(of: /name="_csrf" value="([^"]+)"/)?.1)
        let likes = Likes(prepared.posts)
        let killed = NSCondition()
        let firstMachine = first.children + [first.process.processIdentifier]
        let killer = Thread {
            killed.withLock { while likes.done < 15 { killed.wait() } }
            for pid in firstMachine { kill(pid, SIGKILL) }
        }
        killer.start()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            while let post = likes.next() {
                let status = (try? nginx.curl(["/posts/\(post)/like", "-b", jar, "--data", "_csrf=\(likeToken)"]))?.status ?? 0
                likes.record(post, acknowledged: status == 303)
                killed.withLock { killed.signal() }
            }
        }
        let acknowledged = likes.acknowledged
        print("two servers behind nginx: \(acknowledged.count) of \(prepared.posts.count) likes acknowledged across kill -9 of one")
        #expect(acknowledged.count >= prepared.posts.count - 4)
        for _ in 0..<4 { #expect(try nginx.curl(["/settings", "-b", jar]).status == 200) }
        let stored = try database.likedPostIDs(username: "mina")
        #expect(acknowledged.isSubset(of: stored))
    }
}
