import Foundation
import Testing
import TestSupport
@testable import Web

/// Sign-in providers from one JSON file or from flags: whole providers come out in button
/// order, and every half-given, unknown or doubly-given setting is a clear error.
struct SignInSettingsTests {
    func file(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "moim-sign-in-\(UUID().uuidString).json"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aFileTurnsOnItsProvidersInButtonOrder() throws {
        let path = try file(#"""
            {"oidc": {"issuer": "https://sso.example.org/", "client_id": "moim", "client_secret": "s3", "name": "Club SSO"},
             "naver": {"client_id": "naver-id", "client_secret": "s2"},
             "kakao": {"client_id": "rest-key", "client_secret": "s1"}}
            """#)
        let providers = try SignInSettings(file: path).providers()
        #expect(providers.map(\.id) == ["kakao", "naver", "oidc"])
        #expect(providers[0].issuer == "https://kauth.kakao.com" && providers[0].clientID == "rest-key" && providers[0].oauth == nil)
        #expect(providers[1].oauth?.token == "https://nid.naver.com/oauth2.0/token" && providers[1].clientID == "naver-id")
        #expect(providers[2].issuer == "https://sso.example.org" && providers[2].name == "Club SSO")
    }

    @Test func flagsAddToTheFileButNeverGiveAFieldTwice() throws {
        var settings = try SignInSettings(file: try file(#"{"google": {"client_id": "g", "client_secret": "gs"}}"#))
        try settings.set("kakao", "client_id", "k")
        try settings.set("kakao", "client_secret", "ks")
        try settings.set("google", "client_secret", nil)  // a flag not given
        #expect(try settings.providers().map(\.id) == ["kakao", "google"])
        #expect(throws: ConfigurationError.self) { try settings.set("google", "client_id", "again") }
    }

    @Test(arguments: [
        #"{"kakao": {"client_id": "k"}}"#, #"{"facebook": {"client_id": "f", "client_secret": "s"}}"#,
        #"{"naver": {"client_id": "n"}}"#,
        #"{"kakao": {"client_id": "k", "client_secret": "s", "tenant": "x"}}"#, #"{"kakao": {"client_id": 7, "client_secret": "s"}}"#,
        #"{"oidc": {"issuer": "ftp://sso", "client_id": "c", "client_secret": "s"}}"#, #"["kakao"]"#, "not json",
        #"{"apple": {"client_id": "a", "team_id": "t", "key_id": "k", "private_key_file": "/nonexistent.p8"}}"#,
    ])
    func halfGivenUnknownOrWrongSettingsAreErrors(text: String) throws {
        let path = try file(text)
        #expect(throws: ConfigurationError.self) { try SignInSettings(file: path).providers() }
    }
}
