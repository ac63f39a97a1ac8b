import Foundation
import GRDB
import Testing
@testable import Storage

@Suite struct StoredDateTests {
    @Test func theFastReadingGivesTheSameDateAsGRDB() {
        // Dates across leap years, month ends and the fractions GRDB writes
        let texts = ["2026-11-24 09:30:00.250", "2024-02-29 23:59:59.999", "1970-01-01 00:00:00.000", "2000-12-31 12:00:00.001",
                     "2100-03-01 00:00:00.500", "1969-07-20 20:17:40.000"]
        for text in texts {
            #expect(StoredDate.date(text) == Date.fromDatabaseValue(text.databaseValue), "\(text)")
            #expect(StoredDate.date(text) != nil)
        }
    }

    @Test func aDayOrTimeThatDoesNotExistIsNotADate() {
        for text in ["2026-02-29 00:00:00.000", "2026-13-01 00:00:00.000", "2026-04-31 00:00:00.000", "2026-01-01 24:00:00.000",
                     "2026-01-01 00:60:00.000", "2026-01-01 00:00:60.000", "2026-0a-01 00:00:00.000", "2026-01-01T00:00:00.000",
                     "-026-01-01 00:00:00.000"] {
            var text = text
            #expect(text.withUTF8 { StoredDate.parse($0) } == nil, "\(text)")
        }
    }

    @Test func otherFormsGRDBReadsStillRead() {
        #expect(StoredDate.date("2026-11-24 09:30:00") == Date.fromDatabaseValue("2026-11-24 09:30:00".databaseValue))
        #expect(StoredDate.date("2026-11-24") != nil)
        #expect(StoredDate.date("yesterday") == nil)
    }
}
