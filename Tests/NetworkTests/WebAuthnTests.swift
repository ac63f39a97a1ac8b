import Foundation
@testable import Network
import Testing
import TestSupport

/// Passkeys checked as WebAuthn level 2 asks: each key type a phone or a security key makes,
/// and every way an answer can be forged, replayed or meant for another site.
@Suite struct WebAuthnTests {
    private let party = WebAuthn.RelyingParty(id: "moim.example", origin: "https://moim.example")
    private let challenge = (0..<32).map { UInt8($0) }

    @Test(arguments: [SoftAuthenticator.Kind.es256, .edDSA, .rs256])
    func eachKeyTypeRegistersAndSignsIn(_ kind: SoftAuthenticator.Kind) throws {
        let authenticator = SoftAuthenticator(kind, signCount: 1)
        let made = authenticator.registration(challenge: challenge, origin: party.origin, rpID: party.id)
        #expect(try WebAuthn.challenge(in: made.clientData, type: "webauthn.create", party: party) == challenge)
        let credential = try WebAuthn.register(clientDataJSON: made.clientData, attestationObject: made.attestation, party: party)
        #expect(credential.id == authenticator.credentialID && credential.signCount == 1)
        let answer = authenticator.assertion(challenge: challenge, origin: party.origin, rpID: party.id)
        let count = try WebAuthn.authenticate(clientDataJSON: answer.clientData, authenticatorData: answer.authenticatorData,
                                              signature: answer.signature, publicKey: credential.publicKey, storedCount: 1, party: party)
        #expect(count == 2)
        // The same answer again: the count did not grow
        #expect(throws: WebAuthn.Failure.counterWentBack) {
            try WebAuthn.authenticate(clientDataJSON: answer.clientData, authenticatorData: answer.authenticatorData,
                                      signature: answer.signature, publicKey: credential.publicKey, storedCount: 2, party: party)
        }
    }

    @Test func forgedAnswersAreRefused() throws {
        let authenticator = SoftAuthenticator()
        let made = authenticator.registration(challenge: challenge, origin: party.origin, rpID: party.id)
        let key = try WebAuthn.register(clientDataJSON: made.clientData, attestationObject: made.attestation, party: party).publicKey
        let good = authenticator.assertion(challenge: challenge, origin: party.origin, rpID: party.id)
        func check(_ clientData: [UInt8], _ data: [UInt8], _ signature: [UInt8], key: [UInt8]) throws {
            _ = try WebAuthn.authenticate(clientDataJSON: clientData, authenticatorData: data, signature: signature, publicKey: key, storedCount: 0, party: party)
        }
        // Another site's origin or relying party, a registration's type, a flipped bit
        let elsewhere = authenticator.assertion(challenge: challenge, origin: "https://evil.example", rpID: party.id)
        #expect(throws: WebAuthn.Failure.wrongOrigin) { try check(elsewhere.clientData, elsewhere.authenticatorData, elsewhere.signature, key: key) }
        let otherParty = authenticator.assertion(challenge: challenge, origin: party.origin, rpID: "evil.example")
        #expect(throws: WebAuthn.Failure.wrongRelyingParty) { try check(otherParty.clientData, otherParty.authenticatorData, otherParty.signature, key: key) }
        #expect(throws: WebAuthn.Failure.wrongType) { try check(made.clientData, good.authenticatorData, good.signature, key: key) }
        var flipped = good.signature
        flipped[flipped.count / 2] ^= 1
        #expect(throws: WebAuthn.Failure.badSignature) { try check(good.clientData, good.authenticatorData, flipped, key: key) }
        // Another authenticator's key
        let other = SoftAuthenticator()
        let otherKey = try WebAuthn.register(clientDataJSON: other.registration(challenge: challenge, origin: party.origin, rpID: party.id).clientData,
                                             attestationObject: other.registration(challenge: challenge, origin: party.origin, rpID: party.id).attestation,
                                             party: party).publicKey
        #expect(throws: WebAuthn.Failure.badSignature) { try check(good.clientData, good.authenticatorData, good.signature, key: otherKey) }
        // Nobody present, or not verified
        let absent = authenticator.assertion(challenge: challenge, origin: party.origin, rpID: party.id, flags: 0x04)
        #expect(throws: WebAuthn.Failure.notPresent) { try check(absent.clientData, absent.authenticatorData, absent.signature, key: key) }
        let unverified = authenticator.assertion(challenge: challenge, origin: party.origin, rpID: party.id, flags: 0x01)
        #expect(throws: WebAuthn.Failure.notVerified) { try check(unverified.clientData, unverified.authenticatorData, unverified.signature, key: key) }
        // Attestation other than "none"
        let packed = authenticator.registration(challenge: challenge, origin: party.origin, rpID: party.id, format: "packed")
        #expect(throws: WebAuthn.Failure.unsupportedAttestation("packed")) {
            try WebAuthn.register(clientDataJSON: packed.clientData, attestationObject: packed.attestation, party: party)
        }
    }

    @Test func hostileCBORIsAnErrorNeverATrap() {
        let hostile: [[UInt8]] = [
            [], [0x1B, 0xFF, 0xFF], [0x5B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
            [0x9B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], Array(repeating: 0x81, count: 100), [0x7F, 0x61, 0xFF], [0xF9, 0, 0],
            [0x62, 0xC3, 0x28], [0xBF],
        ]
        for bytes in hostile {
            #expect(throws: CBOR.Malformed.self) { try CBOR.decodeWhole(bytes) }
        }
        #expect(CBOR.negative(UInt64.max).integer == nil)
        #expect(throws: WebAuthn.Failure.self) { try PasskeyKey(cose: [0xA1, 0x03, 0x26]) }
        #expect(throws: WebAuthn.Failure.self) { try AuthenticatorData([UInt8](repeating: 0, count: 36)) }
        #expect(throws: WebAuthn.Failure.self) { try AuthenticatorData([UInt8](repeating: 0, count: 32) + [0x41, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 17)) }
    }
}
