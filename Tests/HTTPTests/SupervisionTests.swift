import Foundation
import Testing
@testable import HTTP

@Suite struct CrashLedgerTests {
    @Test func aRequestInFlightAtTwoCrashesIsQuarantinedAndOthersAreNot() {
        var ledger = CrashLedger()
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(ledger.recordCrash(inFlight: ["GET /records/7", "GET /healthz"], at: start).isEmpty)
        let second = ledger.recordCrash(inFlight: ["GET /records/7", "GET /u/mina"], at: start.addingTimeInterval(5))
        #expect(second == ["GET /records/7"])
        #expect(Set(ledger.quarantined(at: start.addingTimeInterval(10)).keys) == ["GET /records/7"])
        #expect(ledger.quarantined(at: start.addingTimeInterval(5 + ledger.quarantine + 1)).isEmpty)
    }

    @Test func crashesFurtherApartThanTheWindowDoNotAddUp() {
        var ledger = CrashLedger()
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        _ = ledger.recordCrash(inFlight: ["POST /posts"], at: start)
        #expect(ledger.recordCrash(inFlight: ["POST /posts"], at: start.addingTimeInterval(ledger.window + 1)).isEmpty)
    }
}

@Suite struct RequestTableTests {
    @Test func aChildSeesTheQuarantineAndTheSupervisorSeesWhatWasInFlight() throws {
        let until = Date().addingTimeInterval(60)
        let parent = try RequestTable(quarantine: ["GET /records/7": until])
        let child = try RequestTable(adopting: dup(parent.fd))
        #expect(child.isQuarantined(HTTPRequest(method: .get, target: "/records/7?utm=x")))
        #expect(!child.isQuarantined(HTTPRequest(method: .get, target: "/records/8")))
        child.begin(slot: 0, HTTPRequest(method: .post, target: "/posts"))
        child.begin(slot: 3, HTTPRequest(method: .get, target: "/u/" + String(repeating: "한", count: 200)))
        child.begin(slot: 5, HTTPRequest(method: .get, target: "/done"))
        child.end(slot: 5)
        #expect(parent.inFlight.count == 2)
        #expect(parent.inFlight.first == "POST /posts")
    }
}
