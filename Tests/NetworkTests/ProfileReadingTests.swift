import Foundation
@testable import Network
import Testing

/// Naver's profile answers, as its documentation shows them: the member's id is taken, the
/// address never as verified, and every refusal or odd shape is an error, not a guess.
struct ProfileReadingTests {
    private func read(_ json: String) -> Result<ProviderIdentity, OpenIDError> {
        Result { () throws(OpenIDError) in try ProfileReading.naver.identity(Array(json.utf8)) }
    }

    @Test func aProfileGivesTheIdAndAnUnverifiedAddress() throws {
        let identity = try read(#"""
            {"resultcode":"00","message":"success","response":{"id":"32742776","nickname":"OpenAPI","email":"openapi@naver.com",
             "name":"오픈 API","profile_image":"https://ssl.pstatic.net/static/pwe/address/nodata_33x33.gif"}}
            """#).get()
        #expect(identity == ProviderIdentity(subject: "32742776", email: "openapi@naver.com", emailVerified: false, name: "오픈 API",
                                             preferredUsername: "OpenAPI"))
        // Without a name, the nickname; without either, nothing.
        #expect(try read(#"{"resultcode":"00","response":{"id":"1","nickname":"runner"}}"#).get().name == "runner")
        #expect(try read(#"{"resultcode":"00","response":{"id":"1","email":""}}"#).get().email == nil)
    }

    @Test(arguments: [
        #"{"resultcode":"024","message":"Authentication failed / 인증에 실패했습니다."}"#,
        #"{"resultcode":"00","message":"success"}"#,
        #"{"resultcode":"00","response":{"nickname":"no id"}}"#,
        #"{"resultcode":"00","response":{"id":""}}"#,
        #"{"resultcode":"00","response":{"id":12345}}"#,
        #"{"resultcode":0,"response":{"id":"1"}}"#,
        #"[1, 2, 3]"#, "not json", "",
    ])
    func refusalsAndOddShapesAreErrors(json: String) {
        #expect(throws: OpenIDError.self) { try read(json).get() }
    }

    @Test func anIdTooLongForTheDatabaseIsRefused() {
        let long = String(repeating: "9", count: 256)
        #expect(throws: OpenIDError.self) { try read(#"{"resultcode":"00","response":{"id":"\#(long)"}}"#).get() }
    }
}
