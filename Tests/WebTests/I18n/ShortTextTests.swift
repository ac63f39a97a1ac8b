import Testing
@testable import Web

@Suite struct ShortTextTests {
    @Test func piecesAreWrittenInTurn() {
        let text = String(capacity: 32) { $0.append(2026, "년 ", Digits(7, width: 2), "월") }
        #expect(text == "2026년 07월")
    }

    @Test func groupedNumbersHaveCommasEveryThreeDigits() {
        let grouped = { (number: Int) in String(capacity: 32) { $0.appendGrouped(number) } }
        #expect(grouped(0) == "0")
        #expect(grouped(999) == "999")
        #expect(grouped(1_000) == "1,000")
        #expect(grouped(12_345) == "12,345")
        #expect(grouped(-1_234_567) == "-1,234,567")
        // The extremes, whose magnitude does not fit an Int, without a trap
        #expect(grouped(Int.min) == "-9,223,372,036,854,775,808")
        #expect(grouped(Int.max) == "9,223,372,036,854,775,807")
    }

    @Test func paddedNumbersKeepTheirSignAndAllTheirDigits() {
        #expect(String(capacity: 8) { $0.append(Digits(5, width: 3)) } == "005")
        #expect(String(capacity: 8) { $0.append(Digits(12_345, width: 2)) } == "12345")
        #expect(String(capacity: 8) { $0.append(Digits(-7, width: 2)) } == "-07")
    }
}
