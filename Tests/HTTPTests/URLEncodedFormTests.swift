import Testing
import HTTP

@Suite struct URLEncodedFormTests {
    @Test func decodesPlusPercentAndRepeatedKeys() throws {
        let form = try URLEncodedForm(parsing: "name=Mina+Kim&city=%EC%84%9C%EC%9A%B8&tag=a&tag=b&empty=&flag")
        #expect(form["name"] == "Mina Kim")
        #expect(form["city"] == "서울")
        #expect(form.values("tag") == ["a", "b"])
        #expect(form["empty"] == "")
        #expect(form["flag"] == "")
        #expect(form["missing"] == nil)
    }

    @Test func refusesBrokenEscapesAndInvalidUTF8() {
        #expect(throws: HTTPError(.badRequest, message: "Malformed percent-encoding.")) { try URLEncodedForm(parsing: "a=%G1") }
        #expect(throws: HTTPError.self) { try URLEncodedForm(parsing: "a=%E") }
        #expect(throws: HTTPError.self) { try URLEncodedForm(parsing: "a=%FF%FE") }
    }

    @Test func encodesForURLs() {
        #expect(PercentEncoding.encode("/a b?&=서") == "%2Fa%20b%3F%26%3D%EC%84%9C")
    }
}

@Suite struct CookieTests {
    @Test func parsesCookieHeaders() {
        let cookies = Cookies.parse(["a=1; b=\"two\"", "a=ignored; c=3"])
        #expect(cookies == ["a": "1", "b": "two", "c": "3"])
    }

    /// Browsers and hand-written clients: spaces and tabs around pairs, empty pieces, pairs
    /// without a value or name, a lone quote, `=` inside a value, and text that is not ASCII.
    @Test func toleratesWhatClientsSend() {
        let cookies = Cookies.parse([" \ta = 1 ;;; =nameless; flag; q=\"; e=x=y; 언어=한국어; z=\"\";"])
        #expect(cookies == ["a": "1", "q": "\"", "e": "x=y", "언어": "한국어", "z": ""])
        #expect(Cookies.parse(["", ";", "=", "  "]).isEmpty)
    }

    @Test func writesSafeDefaults() {
        let value = SetCookie(name: "s", value: "v", maxAge: 60, secure: true).headerValue
        #expect(value == "s=v; Path=/; Max-Age=60; HttpOnly; Secure; SameSite=Lax")
    }
}
