import Foundation
import Testing
import TestSupport
import Storage

/// `moim serve` as an operator runs it: the supervising parent and its serving child, as
/// real processes on loopback.
@Suite(.serialized) struct SupervisedServerTests {
    /// A running `moim serve`; its standard error is collected to learn the child's pid.
    final class Running {
        let process = Process()
        let port: Int
        private let errors = Pipe()
        private let lines = LockedText()

        init(_ arguments: [String] = [], limitDescriptors: Int? = nil, environment: [String: String] = [:],
             data: String = NSTemporaryDirectory() + "moim-supervised-\(UUID().uuidString)") throws {
            let binary = TestSite.root + "/.build/debug/moim"
            let serve = [binary, "serve", "--port", "0", "--data", data, "--templates", TestSite.root + "/Templates",
                         "--public", TestSite.root + "/Public", "--quiet"] + arguments
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            let limit = limitDescriptors.map { "ulimit -n \($0); " } ?? ""
            process.arguments = ["-c", limit + "exec " + serve.map { "'\($0)'" }.joined(separator: " ")]
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
            let output = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            // Standard error is read on a thread of its own from a copy of the descriptor,
            // which nothing else can close under it, until the last writer is gone.
            let reading = dup(errors.fileHandleForReading.fileDescriptor)
            Thread.detachNewThread { [lines] in
                var buffer = [UInt8](repeating: 0, count: 65_536)
                while true {
                    let count = read(reading, &buffer, buffer.count)
                    if count < 0, errno == EINTR { continue }
                    guard count > 0 else { break }
                    lines.append(String(decoding: buffer[..<count], as: UTF8.self))
                }
                close(reading)
            }
            let firstLine = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
            port = Int(firstLine.firstMatch(of: /127\.0\.0\.1:(\d+)/)?.1 ?? "") ?? 0
            for _ in 0..<100 where !healthy() { Thread.sleep(forTimeInterval: 0.1) }
        }

        deinit {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }

        func healthy() -> Bool {
            guard port > 0, let client = try? LoopbackClient(port: port, readTimeout: 2) else { return false }
            client.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            return client.read().hasPrefix("HTTP/1.1 200")
        }

        /// Sends a request on a new connection and returns the whole answer.
        func send(_ request: String) throws -> String {
            let client = try LoopbackClient(port: port, readTimeout: 5)
            client.send(request)
            return client.read()
        }

        /// Signs up over HTTP as a browser would: the form's CSRF cookie and token, then the POST.
        func signUp(_ username: String) throws -> String {
            let form = try send("GET /signup HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            let cookie = String(form.firstMatch(of: /Set-Cookie: (moim_csrf=[^;]+)/)?.1 ?? "")
            let token = String(form.firstMatch(of: /name="_csrf" value="([^"]+)"/)?.1 ?? "")
            let body = "_csrf=\(token)&username=\(username)&email=\(username)%40example.com&password=correct+horse+battery"
                + "&password_confirmation=correct+horse+battery&display_name=Mina" + Agreed.query
            return try send("POST /signup HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: \(cookie)\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
        }

        /// Pids of the serving children started so far, oldest first.
        var children: [Int32] { lines.text.matches(of: /started server process (\d+)/).compactMap { Int32($0.1) } }
        var log: String { lines.text }
    }

    /// Requests /healthz on a new connection each time for `seconds`, running `event` after
    /// `at` seconds; returns how many were answered and how many connections failed.
    private func load(_ server: Running, seconds: Double, at: Double, _ event: () -> Void) -> (answered: Int, failed: Int, refused: Int) {
        var answered = 0, failed = 0, refused = 0, fired = false
        let start = Date()
        while Date().timeIntervalSince(start) < seconds {
            if !fired, Date().timeIntervalSince(start) >= at { event(); fired = true }
            guard let client = try? LoopbackClient(port: server.port, readTimeout: 3) else { refused += 1; continue }
            client.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            if client.read().hasPrefix("HTTP/1.1 200") { answered += 1 } else { failed += 1 }
        }
        return (answered, failed, refused)
    }

    @Test func killingTheServingChildDuringLoadLosesAtMostTheRequestInFlight() throws {
        let server = try Running()
        #expect(server.healthy())
        let first = try #require(server.children.first)
        let result = load(server, seconds: 4, at: 1) { kill(first, SIGKILL) }
        #expect(result.refused == 0)
        #expect(result.failed <= 1)
        #expect(result.answered > 20)
        #expect(server.children.count == 2)
        #expect(server.log.contains("server process \(first) was killed by signal 9"))
    }

    @Test func killingTheSupervisorEndsItsChildSoANewServerCanTakeThePort() throws {
        var server: Running? = try Running()
        let port = try #require(server?.port)
        let child = try #require(server?.children.first)
        let supervisor = try #require(server?.process.processIdentifier)
        kill(supervisor, SIGKILL)
        // The orphan finishes its requests and exits instead of holding the port alone.
        #expect(eventually { Self.hasExited(child) })
        if !Self.hasExited(child) { kill(child, SIGKILL) }  // else Foundation waits for it as well
        server = nil
        let next = try Running(["--port", String(port)])
        #expect(next.port == port)
        #expect(next.healthy())
    }

    @Test func mailQueuedWhileTheMailServerWasDownIsSentAfterTheSiteIsKilledAndRestarted() throws {
        let data = NSTemporaryDirectory() + "moim-mail-\(UUID().uuidString)"
        let down = try MailSink()
        let port = down.port
        down.stop()
        let arguments = ["--smtp-url", "smtp://127.0.0.1:\(port)", "--base-url", "https://run.example.org", "--mail-retry", "1"]
        var server: Running? = try Running(arguments, data: data)
        #expect(try server?.signUp("mina").hasPrefix("HTTP/1.1 303") == true)
        // The sender tried and failed; now the whole site dies at once.
        for _ in 0..<50 where !(server?.log.contains("deferred") ?? true) { Thread.sleep(forTimeInterval: 0.1) }
        #expect(server?.log.contains("mail 1 to mina@example.com deferred") == true)
        if let pid = server?.process.processIdentifier { kill(pid, SIGKILL) }
        for child in server?.children ?? [] { kill(child, SIGKILL) }
        server = nil

        var options = MailSink.Options()
        options.port = port
        let sink = try MailSink(options)
        let restarted = try Running(arguments, data: data)
        #expect(restarted.healthy())
        let received = sink.waitForMessages(1, timeout: 15)
        #expect(received.map(\.recipient) == ["mina@example.com"])
        #expect(received.first?.links.contains { $0.hasPrefix("https://run.example.org/email/verify/") } == true)
    }

    @Test func theCommandsBackUpALiveSiteAndRestoreIt() throws {
        let data = NSTemporaryDirectory() + "moim-cli-backup-\(UUID().uuidString)"
        let server = try Running(data: data)
        #expect(try server.signUp("mina").hasPrefix("HTTP/1.1 303"))
        func moim(_ arguments: String...) throws -> (status: Int32, output: String) {
            let run = try runTool(TestSite.root + "/.build/debug/moim", arguments, includeErrors: true)
            return (run.status, run.output)
        }
        let archive = data + ".tar"
        let backup = try moim("backup", "--data", data, archive)
        #expect(backup.status == 0 && backup.output.contains("Wrote"))
        let restored = data + "-restored"
        let restore = try moim("restore", archive, "--data", restored)
        #expect(restore.status == 0 && restore.output.contains("integrity ok"))
        let again = try moim("restore", archive, "--data", restored)
        #expect(again.status == 1 && again.output.contains("--force"))
        let copy = try Running(data: restored)
        #expect(try copy.send("GET /u/mina HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").hasPrefix("HTTP/1.1 200"))
    }

    @Test func sighupHandsOverToANewChildWithoutDroppingARequest() throws {
        let server = try Running()
        let first = try #require(server.children.first)
        let result = load(server, seconds: 4, at: 1) { kill(server.process.processIdentifier, SIGHUP) }
        #expect(result.refused == 0 && result.failed == 0)
        #expect(eventually { server.log.contains("took over; \(first) is finishing") })
        #expect(server.children.count == 2)
        #expect(eventually { kill(first, 0) != 0 })  // the old child has finished and been reaped
    }

    @Test func aRequestRunningAtTwoCrashesIsRefusedWhileTheRestOfTheSiteServes() throws {
        let server = try Running()
        // A login runs for a while in the handler (an Argon2 hash), so killing the child just
        // after six are sent catches some in flight: as a poison request would be.
        let page = try LoopbackClient(port: server.port)
        page.send("GET /login HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let login = page.read()
        let token = try #require(login.firstMatch(of: /name="_csrf" value="([^"]+)"/)?.1)
        let cookie = try #require(login.firstMatch(of: /Set-Cookie: (moim_csrf=[^;]+)/)?.1)
        let body = "_csrf=\(token)&login=nobody&password=not+the+password"
        let request = "POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: \(cookie)\r\nContent-Type: application/x-www-form-urlencoded\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
        // Two crashes with the request in flight are needed; a slow machine may not have
        // started some round's logins by the kill, so try a few rounds.
        for round in 1...4 where !server.log.contains("refusing POST /login") {
            let child = try #require(server.children.last)
            let clients = try (0..<6).map { _ in try LoopbackClient(port: server.port) }
            clients.forEach { $0.send(request) }
            Thread.sleep(forTimeInterval: 0.05)
            kill(child, SIGKILL)
            #expect(eventually { server.children.count == round + 1 && server.healthy() })
        }
        #expect(eventually { server.log.contains("refusing POST /login") })
        let refused = try LoopbackClient(port: server.port)
        refused.send(request)
        let answer = refused.read()
        #expect(answer.hasPrefix("HTTP/1.1 503"))
        #expect(answer.contains("Retry-After: 600"))
        #expect(server.healthy())
    }

    @Test func aLowDescriptorLimitCapsConnectionsWithA503InsteadOfSpinning() throws {
        let server = try Running(["--no-supervise"], limitDescriptors: 200)
        var clients: [LoopbackClient] = []
        for _ in 0..<150 { if let client = try? LoopbackClient(port: server.port, readTimeout: 1) { clients.append(client) } }
        Thread.sleep(forTimeInterval: 0.3)
        let busyBefore = cpuSeconds(server.process.processIdentifier)
        Thread.sleep(forTimeInterval: 1)
        let busy = cpuSeconds(server.process.processIdentifier) - busyBefore
        let refusals = clients.suffix(50).filter { $0.read().contains("503") }.count
        #expect(refusals > 0)
        #expect(busy < 0.3)
        clients.removeAll()
        Thread.sleep(forTimeInterval: 0.3)
        #expect(server.healthy())
    }

    /// True once `condition` holds, checked every 0.1 s for up to 10 s.
    /// Within 30 s: a new child starts a debug build and hashes its Argon2 decoy first, slow
    /// when the rest of the suite runs beside it on two cores.
    private func eventually(_ condition: () -> Bool) -> Bool {
        for _ in 0..<300 {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return false
    }

    /// Gone, or a zombie nobody has reaped yet (an orphan's new parent may be slow to).
    private static func hasExited(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 else { return true }
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        return stat.split(separator: ")").last?.split(separator: " ").first == "Z"
    }

    private func cpuSeconds(_ pid: Int32) -> Double {
        let fields = ((try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? "").split(separator: ")").last?.split(separator: " ") ?? []
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}

/// Text appended from one thread and read from another.
final class LockedText: @unchecked Sendable {
    private let lock = NSLock()
    private var value = ""
    func append(_ text: String) { lock.withLock { value += text } }
    var text: String { lock.withLock { value } }
}

/// Two `moim serve` processes on one PostgreSQL database, as two machines would run them.
@Suite(.serialized, .enabled(if: TestDatabase.onPostgres, "two servers share PostgreSQL (TEST_DB=postgres)"))
struct TwoServerTests {
    typealias Running = SupervisedServerTests.Running

    @Test func killingOneServerUnderWritesLosesNoAcknowledgedWriteAndTheOtherKeepsAnswering() throws {
        let url = try TestDatabase.freshPostgresURL()
        let demo = try runTool(TestSite.root + "/.build/debug/moim", [
            "demo", "--database", url, "--data", NSTemporaryDirectory() + "moim-two-\(UUID().uuidString)", "--users", "3", "--posts", "80"])
        #expect(demo.status == 0)
        let first = try Running(["--database", url]), second = try Running(["--database", url])
        #expect(first.healthy() && second.healthy())

        // Signed up on the first server; the session is valid on both.
        let signup = try first.signUp("mina")
        let session = try #require(signup.firstMatch(of: /Set-Cookie: (moim_session=[^;]+)/)?.1)
        func like(_ post: Int, on server: Running) throws -> Bool {
            let page = try server.send("GET /posts/\(post) HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: \(session)\r\nConnection: close\r\n\r\n")
            guard let token = page.firstMatch(of: /name="_csrf" value="([^"]+)"/)?.1 else { return false }
            let body = "_csrf=\(token)"
            let answer = try server.send("POST /posts/\(post)/like HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: \(session)\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
            return answer.hasPrefix("HTTP/1.1 303")
        }
        var acknowledged: Set<Int> = [], answeredAfterTheKill = 0
        for post in 1...80 {
            if post == 40 {
                // The first machine dies at once: its serving process and its supervisor.
                for child in first.children { kill(child, SIGKILL) }
                kill(first.process.processIdentifier, SIGKILL)
            }
            let server = post < 40 && post.isMultiple(of: 2) ? first : second
            if try like(post, on: server) {
                acknowledged.insert(post)
                if post >= 40 { answeredAfterTheKill += 1 }
            }
        }
        #expect(answeredAfterTheKill == 41)
        #expect(acknowledged.count == 80)
        let database = try AppDatabase.open(postgres: url, connections: 2)
        defer { try? database.close() }
        let stored = Set(try database.likedPostIDs(username: "mina").map { Int($0) })
        #expect(acknowledged.isSubset(of: stored))
    }
}
