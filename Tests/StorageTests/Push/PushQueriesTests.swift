import Foundation
import Testing
import TestSupport
@testable import Storage

/// A member's push devices, at most a set number, and the kinds they want.
@Suite struct PushQueriesTests {
    @Test func devicesAreCappedAndKindsDefaultToAll() throws {
        let database = try TestDatabase.fresh()
        let mina = try database.members("mina")[0]
        let session = try database.sessions.createSession(userID: mina, tokenHash: Data(repeating: 9, count: 32), csrfToken: "t").storedID
        #expect(try database.push.pushKinds(userID: mina) == Set(PushKind.allCases))
        let keys = (p256dh: [UInt8](repeating: 4, count: 65), auth: [UInt8](repeating: 5, count: 16))
        for index in 0..<2 {
            _ = try database.push.subscribePush(userID: mina, sessionID: session, endpoint: "https://push.example/\(index)",
                                                p256dh: keys.p256dh, auth: keys.auth, name: "Phone \(index)", limit: 2)
        }
        #expect(throws: StorageError.full) {
            try database.push.subscribePush(userID: mina, sessionID: session, endpoint: "https://push.example/2",
                                            p256dh: keys.p256dh, auth: keys.auth, name: "Third", limit: 2)
        }
        // The same endpoint again is the same device, not one more
        _ = try database.push.subscribePush(userID: mina, sessionID: session, endpoint: "https://push.example/0",
                                            p256dh: keys.p256dh, auth: keys.auth, name: "Phone again", limit: 2)
        #expect(try database.push.pushDevices(userID: mina, sessionID: session).count == 2)
        try database.push.setPushKinds(userID: mina, [.talk, .decisions])
        #expect(try database.push.pushKinds(userID: mina) == [.talk, .decisions])
    }
}
