import Foundation
import Testing
import TestSupport
import Storage
@testable import Web

/// PostgreSQL itself killed (`kill -9` of every process of its cluster) while members write
/// through a real `moim serve`: pages answer 503 while it is down, the server recovers by itself
/// when it is back, and no write a member was told succeeded is lost (`synchronous_commit = on`
/// and fsync, PostgreSQL's defaults).
@Suite(.serialized, .enabled(if: TestDatabase.onPostgres, "kills a PostgreSQL cluster of its own (TEST_DB=postgres)"))
struct PostgresCrashTests {
    typealias Running = SupervisedServerTests.Running

    /// A durable throwaway cluster of this test's own: the suite's shared one must live on.
    final class Cluster: @unchecked Sendable {  // immutable once started
        let directory = NSTemporaryDirectory() + "moim-crash-postgres-\(UUID().uuidString)"
        let url: String

        init() throws { url = try Self.script("start", directory) }
        deinit { _ = try? Self.script("stop", directory) }

        func start() throws { try Self.script("start", directory) }

        /// Runs `script/postgres COMMAND DIR` and returns what it printed.
        @discardableResult
        private static func script(_ command: String, _ directory: String) throws -> String {
            try runTool(TestSite.root + "/script/postgres", [command, directory], environment: ["POSTGRES_DURABLE": "1"])
                .output.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        /// Every process of the cluster at once, as a power cut would take them (less the disk).
        func killAll() throws {
            let pidFile = try String(contentsOfFile: directory + "/cluster/postmaster.pid", encoding: .utf8)
            guard let postmaster = Int32(pidFile.split(separator: "\n").first ?? "") else { throw CocoaError(.fileReadCorruptFile) }
            let children = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap(Int32.init).filter { pid in
                let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
                // pid (comm) state ppid …: the parent is the fourth field, after the command's parentheses.
                let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
                return fields.count > 1 && Int32(fields[1]) == postmaster
            }
            for pid in children + [postmaster] { kill(pid, SIGKILL) }
            // Gone (and reaped) before it may start again on the same lock file.
            for _ in 0..<100 where (children + [postmaster]).contains(where: { kill($0, 0) == 0 }) { Thread.sleep(forTimeInterval: 0.05) }
        }
    }

    /// Posts to like, handed to several threads, and what each answer was.
    final class Work: @unchecked Sendable {
        private let lock = NSLock()
        private var waiting: [Int64]
        private(set) var acknowledged: Set<Int64> = []
        private(set) var statuses: [String: Int] = [:]

        init(_ posts: [Int64]) { waiting = posts.reversed() }
        func next() -> Int64? { lock.withLock { waiting.popLast() } }
        func retry(_ post: Int64) { lock.withLock { waiting.insert(post, at: 0) } }
        func record(_ post: Int64, status: String) {
            lock.withLock {
                statuses[status, default: 0] += 1
                if status == "303" { acknowledged.insert(post) }
            }
        }
        var done: Int { lock.withLock { acknowledged.count } }
    }

    @Test func killingPostgreSQLUnderWritesLosesNoAcknowledgedWrite() throws {
        let cluster = try Cluster()
        let url = try AppDatabase.createPostgresDatabase(named: "crash", server: cluster.url)
        let setup = try AppDatabase.open(postgres: url, connections: 2)
        let author = try #require(try setup.accounts.createUser(User(username: "hostess", email: "hostess@example.com", passwordHash: "x", displayName: "Hostess")).id)
        var posts: [Int64] = []
        for number in 1...200 {
            let content = PostContent(body: "Run \(number)", bodyHTML: "<p>Run \(number)</p>", tags: [], mentionedUserIDs: [])
            let post = try setup.posts.createPost(authorID: author, content: content, photos: [])
            posts.append(try #require(post.id))
        }
        try setup.close()

        let server = try Running(["--database", url])
        let signup = try server.signUp("mina")
        let session = try #require(signup.firstMatch(of: /Set-Cookie: (moim_session=[^;]+)/)?.1)
        let page = try server.send("GET /settings HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: \(session)\r\nConnection: close\r\n\r\n")
        let token = try #require(page.firstMatch(of: /name="_csrf" value="([^"]+)"/)?.1)

        // Four members' worth of likes; a 503 is tried again a moment later, as a person would.
        let work = Work(posts)
        let request: @Sendable (Int64) -> String = { post in
            let body = "_csrf=\(token)"
            return "POST /posts/\(post)/like HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: \(session)\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
        }
        let crash = Thread {
            while work.done < 50 { Thread.sleep(forTimeInterval: 0.01) }
            try? cluster.killAll()
            Thread.sleep(forTimeInterval: 1)
            try? cluster.start()
        }
        crash.start()
        let port = server.port, deadline = Date().addingTimeInterval(60)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            while Date() < deadline, let post = work.next() {
                var answer = ""
                if let client = try? LoopbackClient(port: port, readTimeout: 5) {
                    client.send(request(post))
                    answer = client.read()
                }
                let status = String(answer.dropFirst(9).prefix(3))
                work.record(post, status: status.isEmpty ? "no answer" : status)
                if status != "303" {
                    work.retry(post)
                    Thread.sleep(forTimeInterval: 0.05)
                }
            }
        }
        print("PostgreSQL killed under writes: answers \(work.statuses.sorted { $0.key < $1.key })")

        // Every like was acknowledged in the end, PostgreSQL's outage showed as 503s, and
        // nothing else went wrong.
        #expect(work.acknowledged == Set(posts))
        #expect((work.statuses["503"] ?? 0) > 0)
        #expect(Set(work.statuses.keys).isSubset(of: ["303", "503"]))
        let database = try AppDatabase.open(postgres: url, connections: 2)
        defer { try? database.close() }
        let stored = try database.likedPostIDs(username: "mina")
        #expect(work.acknowledged.isSubset(of: stored))
        #expect(server.healthy())
    }
}
