import Foundation
import HTTP
import Imaging
import Storage
import Testing
@testable import Web

@Suite struct CrewFormTests {
    let processor = ImageProcessor(concurrency: 1)

    func validated(_ fields: [(String, String)]) throws -> (CrewFields?, FieldErrors) {
        var all: [String: String] = ["name": "Han River Runners", "sport": "running"]
        for (name, value) in fields { all[name] = value }
        let (crew, _, errors) = try CrewForm(URLEncodedForm(all.map { ($0.key, $0.value) })).validate(images: processor)
        return (crew, errors)
    }

    @Test func aSlugIsMadeFromAnyNameInLatinLetters() {
        #expect(CrewForm.slug(from: "Han River Runners!") == "han-river-runners")
        #expect(CrewForm.slug(from: "한강 러너스") == "hangang-leoneoseu")
        #expect(CrewForm.slug(from: "🏃") == "crew")  // nothing to spell it with
        #expect(CrewForm.slug(from: String(repeating: "long ", count: 20)).utf8.count <= 40)
    }

    @Test func aSlugIsLowerCaseLettersDigitsAndInnerHyphens() {
        #expect(CrewForm.isValidSlug("han-river-10k"))
        #expect(!CrewForm.isValidSlug("Han"))
        #expect(!CrewForm.isValidSlug("-han"))
        #expect(!CrewForm.isValidSlug("a"))
        #expect(!CrewForm.isValidSlug("new"))  // /crews/new is the form
        #expect(!CrewForm.isValidSlug("한강"))
        #expect(!CrewForm.isValidSlug("../admin"))
    }

    @Test func aValidFormGivesTheFieldsWithTheSlugMadeForIt() throws {
        let (crew, errors) = try validated([("fee_amount", "20000"), ("member_cap", "50"), ("refund_days", "7")])
        #expect(errors.isEmpty)
        #expect(crew?.slug == "han-river-runners" && crew?.feeAmount == 20_000 && crew?.memberCap == 50 && crew?.refundDays == 7)
    }

    @Test func eachBadFieldIsNamed() throws {
        #expect(try validated([("name", "H")]).1.fields == ["name"])
        #expect(try validated([("sport", "chess")]).1.fields == ["sport"])
        #expect(try validated([("fee_amount", "-1")]).1.fields == ["fee_amount"])
        #expect(try validated([("fee_currency", "BTC")]).1.fields == ["fee_amount"])
        #expect(try validated([("member_cap", "0")]).1.fields == ["member_cap"])
        #expect(try validated([("refund_days", "366")]).1.fields == ["refund_days"])
        #expect(try validated([("join_policy", "bribe")]).1.fields == ["join_policy"])
        #expect(try validated([("slug", "new")]).1.fields == ["slug"])
        for number in ["nan", "inf", "1e400", "99999999999999999999999", "٣"] {
            #expect(try validated([("fee_amount", number)]).1.fields == ["fee_amount"])
            #expect(try validated([("member_cap", number)]).1.fields == ["member_cap"])
        }
        #expect(try validated([("name", "")]).0 == nil)
    }

    @Test func aCoverThatIsNotAnImageIsAnErrorBesideTheField() throws {
        let cover = try #require(try MultipartForm(
            parsing: Array("--b\r\nContent-Disposition: form-data; name=\"cover\"; filename=\"a.jpg\"\r\nContent-Type: image/jpeg\r\n\r\nnot a jpeg\r\n--b--\r\n".utf8),
            boundary: "b").files.first)
        let form = CrewForm(URLEncodedForm([("name", "Han River Runners"), ("sport", "running")]), cover: cover)
        let (crew, image, errors) = try form.validate(images: processor)
        #expect(crew == nil && image == nil && errors.fields == ["cover"])
    }
}
