import Foundation
import HTTP
import Storage
import Testing
@testable import Web

@Suite struct ProfileFieldsTests {
    let now = Date(timeIntervalSince1970: 1_795_809_600)  // 2026

    func problems(_ fields: [(String, String)]) -> Set<String> {
        var errors = FieldErrors()
        ProfileFields(URLEncodedForm([("display_name", "Mina")] + fields)).validate(into: &errors, now: now)
        return errors.fields
    }

    @Test func choicesMustBeTheSitesOwn() {
        #expect(problems([("gender", "female"), ("job", "office"), ("language", "ko")]).isEmpty)
        #expect(problems([("gender", "<script>")]) == ["gender"])
        #expect(problems([("job", "astronaut")]) == ["job"])
        #expect(problems([("region", "Atlantis")]) == ["region"])
        #expect(problems([("language", "fr")]) == ["language"])
    }

    @Test func aBirthYearIsAPastYear() {
        #expect(problems([("birth_year", "1990")]).isEmpty)
        for bad in ["2027", "1899", "nan", "1e3", "-1990", "１９９０", "99999999999999999999"] {
            #expect(problems([("birth_year", bad)]) == ["birth_year"], "\(bad)")
        }
    }

    @Test func aBioKeepsItsLinesAndIsAtMost500Long() {
        let fields = ProfileFields(URLEncodedForm([("display_name", "Mina"), ("bio", "  Runs at dawn.\r\nLikes hills.  ")]))
        #expect(fields.bio == "Runs at dawn.\nLikes hills.")
        #expect(problems([("bio", String(repeating: "가", count: 501))]) == ["bio"])
    }

    @Test func emptyChoicesAreStoredAsNothing() {
        let changes = ProfileFields(URLEncodedForm([("display_name", "Mina"), ("gender", ""), ("birth_year", "1990")])).changes
        #expect(changes.gender == nil && changes.job == nil && changes.birthYear == 1990)
    }
}
