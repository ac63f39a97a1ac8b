import Foundation
import Formats
import Network
import Testing

/// One-time codes as authenticator apps make them: RFC 6238's own test values, a phone's
/// clock a step off, and nonsense refused.
@Suite struct OneTimeCodeTests {
    /// RFC 6238, appendix B: the SHA-1 secret, and the last 6 of each 8-digit value.
    let secret = Array("12345678901234567890".utf8)

    @Test func theRFCsValuesComeOut() {
        for (seconds, code) in [(59.0, "287082"), (1_111_111_109, "081804"), (1_111_111_111, "050471"), (1_234_567_890, "005924"),
                                (2_000_000_000, "279037"), (20_000_000_000, "353130")] {
            let counter = OneTimeCode.counter(at: Date(timeIntervalSince1970: seconds))
            #expect(counter.map { OneTimeCode.code(secret: secret, counter: $0) } == code, "\(seconds)")
        }
    }

    @Test func aCodeMatchesItsStepAndTheOnesBesideItOnly() throws {
        let now = Date(timeIntervalSince1970: 1_234_567_890)
        let step = try #require(OneTimeCode.counter(at: now))
        for offset in [-1, 0, 1] as [Int64] {
            #expect(OneTimeCode.matchingStep(OneTimeCode.code(secret: secret, counter: step + offset), secret: secret, at: now) == step + offset)
        }
        #expect(OneTimeCode.matchingStep(OneTimeCode.code(secret: secret, counter: step + 2), secret: secret, at: now) == nil)
        #expect(OneTimeCode.matchingStep("005 924", secret: secret, at: now) == step)
        for typed in ["", "00592", "0059244", "abcdef", "٠٠٥٩٢٤", "005924\u{0}", "+05924", "5924.0"] {
            #expect(OneTimeCode.matchingStep(typed, secret: secret, at: now) == nil, "\(typed)")
        }
        for date in [Date(timeIntervalSince1970: -1), Date(timeIntervalSince1970: .infinity), Date(timeIntervalSince1970: .nan), Date(timeIntervalSince1970: 1e300)] {
            #expect(OneTimeCode.counter(at: date) == nil)
        }
    }

    @Test func secretsReadBackFromBase32() {
        #expect(Base32.encode(secret) == "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")
        #expect(Base32.decode("gezd gnbv gy3t qojq gezd gnbv gy3t qojq") == secret)
        #expect(Base32.decode("MZXW6===") == Array("foo".utf8))
        #expect(Base32.decode("GEZ1") == nil && Base32.decode("é") == nil)
        for length in 0...12 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 37 + 11) }
            #expect(Base32.decode(Base32.encode(bytes)) == bytes)
        }
    }
}
