import CompiledHTML
import Formats
import Foundation
import Testing
@testable import Web

@Suite struct RenderingTests {
    @Test func base64URLMatchesFoundationWithoutPadding() {
        for length in 0..<40 {
            let bytes = (0..<length).map { UInt8(($0 * 37 + length) % 256) }
            let expected = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(Crypto.base64URL(bytes) == expected)
            #expect(Crypto.decodeBase64URL(expected) == bytes)
        }
        // Padding, the other alphabet, stray characters and impossible lengths are not tokens.
        for junk in ["a", "ab==", "a+b/", "ab cd", "abc\u{0}", "한강", String(repeating: "A", count: 129)] {
            #expect(Crypto.decodeBase64URL(junk) == nil, "\(junk.debugDescription)")
        }
    }

    /// Placeholders are filled in one pass: a name that looks like a placeholder stays as typed.
    @Test func placeholdersAreFilledOnceAndNeverInsideWhatWasFilledIn() throws {
        let localizer = try Localizer(directory: TestSite.root + "/Templates/i18n")
        #expect(localizer.text(.notifications.crewRequest, .en, ["name": "{crew}", "crew": "Han River"]) == "{crew} asked to join Han River.")
        #expect(localizer.text(.notifications.crewRequest, .en, ["name": "Mina {", "crew": "}"]) == "Mina { asked to join }.")
        #expect(localizer.text(.notifications.crewRequest, .en) == "{name} asked to join {crew}.")
    }

    @Test func escapingCoversEveryHTMLSpecialCharacter() {
        #expect(HTMLEscaping.escape(#"<a href="x" onclick='y'>&</a>"#) == "&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;")
        #expect(HTMLEscaping.escape("한강 러닝") == "한강 러닝")
    }

    @Test(arguments: Language.allCases)
    func numbersAreGroupedAsFoundationGroupsThem(language: Language) throws {
        let localizer = try Localizer(directory: TestSite.root + "/Templates/i18n")
        let reference = NumberFormatter()
        reference.locale = Locale(identifier: language.localeIdentifier)
        reference.numberStyle = .decimal
        for value in [0, 7, -7, 999, 1000, -1000, 12_345, 999_999, 1_000_000, -123_456_789, Int.max, Int.min] {
            #expect(localizer.number(value, language) == reference.string(from: NSNumber(value: value)), "\(value)")
        }
    }

    @Test(arguments: ["UTC", "Asia/Seoul", "America/New_York", "Asia/Kolkata", "Pacific/Chatham"])
    func datesAreWrittenAsICUWritesThem(zone: String) throws {
        let timeZone = try #require(TimeZone(identifier: zone))
        let formatters = Formatters()
        var generator = SystemRandomNumberGenerator()
        // Leap days, the turns of years and of the epoch, noon and midnight, then random moments.
        var moments: [Double] = [0, -1, 951_782_400, 951_868_800, 1_767_225_599, 1_767_225_600, -2_208_988_800,
                                 4_107_542_400, 1_764_072_000, 1_764_028_800]
        moments += (0..<300).map { _ in Double.random(in: -2_208_988_800...4_102_444_800, using: &generator).rounded(.down) }
        for moment in moments {
            let date = Date(timeIntervalSince1970: moment)
            for language in Language.allCases {
                for style in [Formatters.DateStyle.monthYear, .date, .dateTime] {
                    #expect(formatters.format(date, style, language, timeZone) == formatters.format(date, skeleton: style.skeleton, language, timeZone),
                            "\(moment) \(language) \(style)")
                }
            }
        }
    }

    @Test func datesOutsideTheCivilRangeFallBackInsteadOfTrapping() {
        for moment in [Double.greatestFiniteMagnitude, -1e300, 1e15, .infinity, .nan] {
            #expect(CivilTime(Date(timeIntervalSince1970: moment), TimeZone(identifier: "UTC")!) == nil)
        }
        let epoch = CivilTime(Date(timeIntervalSince1970: 0), TimeZone(identifier: "UTC")!)
        #expect(epoch.map { [$0.year, $0.month, $0.day, $0.hour, $0.minute] } == [1970, 1, 1, 0, 0])
    }

    @Test func theWriterEscapesAsHTMLEscapingDoes() {
        for text in [#"<a href="x" onclick='y'>&</a>"#, "한강 러닝", "", "&&", "plain", "tail<"] {
            var writer = HTMLWriter(.en)
            writer.escape(text)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == HTMLEscaping.escape(text))
        }
    }

    @Test func theTemplateLanguagesAreTheCatalogOrder() {
        #expect(Language.allCases.map(\.templateIndex) == Array(0..<Language.allCases.count))
    }
}

@Suite struct InternetDateTests {
    @Test func formatsUTCLikeFoundation() {
        var generator = SystemRandomNumberGenerator()
        // Stored dates have milliseconds (Foundation rounds a fraction past .9995 up).
        let random = (0..<500).map { _ in Double(Int.random(in: -2_000_000_000_000...4_000_000_000_000, using: &generator)) / 1_000 }
        let reference = ISO8601DateFormatter()
        for seconds in [0.0, 1_795_000_000.7, 951_782_400, -1, -86_400.5, 253_402_300_799] + random {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(InternetDate.format(date) == reference.string(from: date), "\(seconds)")
        }
        for seconds in [Double.infinity, -.infinity, .nan, 1e300, -1e300] {
            #expect(InternetDate.format(Date(timeIntervalSince1970: seconds)) == "")
        }
    }
}

@Suite struct AbsentValueTests {
    @Test func aPageWithoutAnErrorShowsNoErrorBox() throws {
        let site = try TestSite()
        #expect(!site.browser().get("/login").bodyText.contains("form-error"))
    }
}
