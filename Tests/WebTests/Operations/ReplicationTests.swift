import Foundation
import Storage
import Testing
import TestSupport

/// `moim serve` under Litestream (`deploy/litestream.yml`, as `script/replicate` runs it):
/// writes under load, a SIGKILL of both processes, and a restore from the replica.
@Suite(.serialized) struct ReplicationTests {
    static let litestream = TestSite.root + "/.build/litestream-venv/bin/litestream"

    /// SIGKILL to `pid` and every process it started (Litestream's child is the server).
    private func killTree(_ pid: Int32) {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let child = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            // "pid (comm) state ppid …": the field after the state.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, Int32(fields[1]) == pid { killTree(child) }
        }
        kill(pid, SIGKILL)
    }

    private func send(_ port: Int, _ request: String) -> String {
        guard let client = try? LoopbackClient(port: port, readTimeout: 5) else { return "" }
        client.send(request)
        return client.read()
    }

    private func form(_ port: Int, _ path: String, cookie: String, _ body: String) -> String {
        send(port, "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: \(cookie)\r\nContent-Type: application/x-www-form-urlencoded\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
    }

    @Test func writesAcknowledgedASecondBeforeAKillAreInTheRestoredReplica() throws {
        let root = NSTemporaryDirectory() + "moim-replica-\(UUID().uuidString)"
        let data = root + "/data", replica = root + "/replica", restored = root + "/restored"
        let port = freeLoopbackPort()
        let serve = [TestSite.root + "/.build/debug/moim", "serve", "--no-supervise", "--port", String(port), "--data", data,
                     "--templates", TestSite.root + "/Templates", "--public", TestSite.root + "/Public", "--quiet"]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.litestream)
        process.arguments = ["replicate", "-config", TestSite.root + "/deploy/litestream.yml", "-exec", serve.joined(separator: " ")]
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["MOIM_DATA": data, "MOIM_REPLICA": replica, "MOIM_WAL_AUTOCHECKPOINT": "0"]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { killTree(process.processIdentifier) }
        for _ in 0..<100 where !send(port, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").hasPrefix("HTTP/1.1 200") {
            Thread.sleep(forTimeInterval: 0.1)
        }

        // Mina signs up, then saves her profile as fast as she can: bio 1, 2, 3…
        let signup = send(port, "GET /signup HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let csrfCookie = String(signup.firstMatch(of: /Set-Cookie: (moim_csrf=[^;]+)/)?.1 ?? "")
        let token = String(signup.firstMatch(of: /name="_csrf" value="([^"]+)"/)?.1 ?? "")
        let created = form(port, "/signup", cookie: csrfCookie, "_csrf=\(token)&username=mina&email=mina%40example.com"
            + "&password=correct+horse+battery&password_confirmation=correct+horse+battery&display_name=Mina" + Agreed.query)
        let session = String(created.firstMatch(of: /Set-Cookie: (moim_session=[^;]+)/)?.1 ?? "")
        let settings = send(port, "GET /settings HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: \(session)\r\nConnection: close\r\n\r\n")
        let sessionToken = String(settings.firstMatch(of: /name="_csrf" value="([^"]+)"/)?.1 ?? "")
        #expect(!session.isEmpty && !sessionToken.isEmpty)
        var acknowledged: [(bio: Int, at: Date)] = []
        let start = Date()
        var bio = 0
        while Date().timeIntervalSince(start) < 4 {
            bio += 1
            let answer = form(port, "/settings", cookie: session, "_csrf=\(sessionToken)&display_name=Mina&bio=\(bio)")
            if answer.hasPrefix("HTTP/1.1 303") { acknowledged.append((bio, Date())) }
        }

        // The machine dies: both processes at once.
        let killedAt = Date()
        killTree(process.processIdentifier)
        process.waitUntilExit()
        #expect(acknowledged.count > 20)

        try FileManager.default.createDirectory(atPath: restored, withIntermediateDirectories: true)
        let restore = try runTool(Self.litestream, ["restore", "-config", TestSite.root + "/deploy/litestream.yml",
                                                    "-o", restored + "/moim.sqlite", data + "/moim.sqlite"],
                                  environment: ["MOIM_DATA": data, "MOIM_REPLICA": replica, "MOIM_WAL_AUTOCHECKPOINT": "0"])
        #expect(restore.status == 0)

        #expect(try AppDatabase.check(databaseAt: restored + "/moim.sqlite").integrity == "ok")
        let copy = try AppDatabase.open(directory: restored)
        defer { try? copy.close() }
        let stored = try copy.accounts.user(username: "mina").flatMap { Int($0.bio) } ?? 0
        // Every save acknowledged more than the sync interval (1 s, plus a second of margin)
        // before the kill is there.
        let safe = acknowledged.last { killedAt.timeIntervalSince($0.at) > 2 }?.bio ?? 0
        #expect(safe > 0 && stored >= safe, "restored bio \(stored), acknowledged \(safe) two seconds before the kill, \(bio) in all")
    }
}
