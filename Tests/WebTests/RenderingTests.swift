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
        for seconds in [0.0, 1_795_000_000.7, 951_782_400] {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(InternetDate.format(date) == ISO8601DateFormatter().string(from: date))
        }
    }
}

@Suite struct AbsentValueTests {
    @Test func aPageWithoutAnErrorShowsNoErrorBox() throws {
        let site = try TestSite()
        #expect(!site.browser().get("/login").bodyText.contains("form-error"))
    }
}
