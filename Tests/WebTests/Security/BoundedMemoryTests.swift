import Foundation
import Testing
import HTTP
import TestSupport
@testable import Web

/// Hostile bodies against a live server: who may send 30 MiB, the input budget, the deadline.
@Suite(.serialized) struct BoundedMemoryTests {
    private func uploadHead(_ path: String, length: Int, cookie: String = "") -> String {
        "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(cookie)Content-Type: multipart/form-data; boundary=x\r\nContent-Length: \(length)\r\n\r\n"
    }

    private func cookie(_ live: LiveSite) -> String {
        "Cookie: " + live.member.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") + "\r\n"
    }

    @Test func onlyASignedInMemberPostingToAFormWithFilesMaySendMoreThan1MiB() throws {
        let live = try LiveSite()
        // A visitor's upload to /login, to an upload route, and a member's to a route without files: refused from the head.
        for head in [uploadHead("/login", length: 31_457_280), uploadHead("/posts", length: 31_457_280),
                     uploadHead("/posts/1/comments", length: 2_000_000, cookie: cookie(live))] {
            let client = try LoopbackClient(port: live.server.port)
            client.send(head)
            #expect(client.read().statusCode == 413)
        }
        // A member's photo post may be large: the server waits for the body instead.
        let client = try LoopbackClient(port: live.server.port, readTimeout: 1)
        client.send(uploadHead("/posts", length: 20_000_000, cookie: cookie(live)))
        #expect(client.read() == "")
        #expect(live.isUp)
    }

    @Test func bodiesPastTheServersBudgetAre503AndTheBudgetComesBack() throws {
        var configuration = LiveSite.serverConfiguration()
        configuration.bodyMemory = 1024 * 1024
        let live = try LiveSite(configuration: configuration)
        let first = try LoopbackClient(port: live.server.port, readTimeout: 1)
        first.send(uploadHead("/posts", length: 5_000_000, cookie: cookie(live)))
        first.send(bytes: [UInt8](repeating: 0x61, count: 900_000))
        #expect(first.read() == "")  // within the budget: still reading
        let second = try LoopbackClient(port: live.server.port)
        second.send(uploadHead("/posts", length: 5_000_000, cookie: cookie(live)))
        second.send(bytes: [UInt8](repeating: 0x61, count: 900_000))
        #expect(second.read().statusCode == 503)
        first.close()
        Thread.sleep(forTimeInterval: 0.2)
        let third = try LoopbackClient(port: live.server.port, readTimeout: 1)
        third.send(uploadHead("/posts", length: 5_000_000, cookie: cookie(live)))
        third.send(bytes: [UInt8](repeating: 0x61, count: 900_000))
        #expect(third.read() == "")  // the first connection's share was given back
    }

    @Test func aBodyThatKeepsTheRateButNeverEndsIsCutOff() throws {
        var configuration = LiveSite.serverConfiguration()
        configuration.headerTimeout = 1
        configuration.minimumBodyRate = 1
        configuration.bodyTimeout = 2
        let live = try LiveSite(configuration: configuration)
        let client = try LoopbackClient(port: live.server.port, readTimeout: 1)
        client.send("POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100000\r\n\r\n")
        var answer = ""
        for _ in 0..<40 where answer.isEmpty {
            client.send("aaaaaaaaaa")
            answer = client.read()
        }
        #expect(answer.statusCode == 408)
        #expect(live.isUp)
    }
}
