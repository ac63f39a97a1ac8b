import Foundation
import HTTP
import Testing
@testable import Web

@Suite struct MomentTests {
    @Test func feedsSayHowLongAgoForAWeekThenTheDate() throws {
        let localizer = try Localizer(directory: TestSite.root + "/Templates/i18n", timeZone: .init(identifier: "Asia/Seoul")!)
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let ago = { (seconds: Double, language: Language) in localizer.moment(now.addingTimeInterval(-seconds), language, now: now).text }
        #expect(ago(-30, .en) == "just now" && ago(59, .en) == "just now" && ago(59, .ko) == "방금")
        #expect(ago(180, .en) == "3 min ago" && ago(180, .ko) == "3분 전")
        #expect(ago(3_600, .en) == "1 hour ago" && ago(7_300, .en) == "2 hours ago" && ago(7_300, .ko) == "2시간 전")
        #expect(ago(90_000, .en) == "1 day ago" && ago(6 * 86_400, .ko) == "6일 전")
        #expect(ago(8 * 86_400, .en) == "Nov 10, 2026")
        _ = ago(.infinity, .en)  // never a trap
        let moment = localizer.moment(now.addingTimeInterval(-180), .en, now: now)
        #expect(moment.exact == localizer.dateTime(now.addingTimeInterval(-180), .en) && moment.iso == InternetDate.format(now.addingTimeInterval(-180)))
    }

    @Test func theTextAloneIsTheMomentsText() throws {
        let localizer = try Localizer(directory: TestSite.root + "/Templates/i18n", timeZone: .init(identifier: "Asia/Seoul")!)
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let ages: [Double] = [0, 61, 3_599, 3_600, 86_399, 86_400, 604_799, 604_800, 34_560_000]
        for seconds in ages {
            for language in Language.allCases {
                let date = now.addingTimeInterval(-seconds)
                #expect(localizer.momentText(date, language, now: now) == localizer.moment(date, language, now: now).text)
            }
        }
    }

    @Test func aDateThatIsNotFiniteIsNeverAgo() throws {
        let localizer = try Localizer(directory: TestSite.root + "/Templates/i18n", timeZone: .init(identifier: "Asia/Seoul")!)
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        #expect(localizer.ago(Date(timeIntervalSince1970: .nan), .en, now: now) == nil)
        #expect(localizer.ago(Date(timeIntervalSince1970: -.infinity), .ko, now: now) == nil)
        #expect(localizer.ago(now.addingTimeInterval(-7 * 86_400), .en, now: now) == nil)
        #expect(localizer.ago(now.addingTimeInterval(-(7 * 86_400 - 1)), .en, now: now) == "6 days ago")
    }
}
