import Foundation
import Testing
@testable import Web

@Suite struct MoneyAndDaysTests {
    @Test func amountsCarryTheirCurrencysSymbolAndGrouping() throws {
        let app = try TestSite().app
        #expect(app.money(10_000, "KRW", .ko) == "₩10,000")
        #expect(app.money(20, "USD", .en) == "$20")
        #expect(app.money(15, "EUR", .en) == "€15")
        #expect(app.money(2_000, "JPY", .ko) == "¥2,000")
        // A currency without a symbol is named after the number
        #expect(app.money(1_500, "CHF", .en) == "1,500 CHF")
    }

    @Test func todayIsTheSitesCalendarDay() throws {
        // Given a site in Seoul (UTC+9) and the moment 2026-11-27 20:00 UTC
        var configuration = TestSite.configuration()
        configuration.timeZone = try #require(TimeZone(identifier: "Asia/Seoul"))
        let app = try TestSite(configuration: configuration).app
        let evening = Date(timeIntervalSince1970: 1_795_809_600)
        // Then it is already the 28th there
        #expect(app.today(evening) == "2026-11-28")
        #expect(app.today(evening.addingTimeInterval(-6 * 3_600)) == "2026-11-27")
    }
}
