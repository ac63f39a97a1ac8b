import Testing
@testable import HTTP

@Suite struct HTTPHeadersTests {
    @Test func namesMatchIgnoringASCIICaseOnly() {
        let headers = HTTPHeaders([("Content-Type", "text/html"), ("set-cookie", "a=1"), ("Set-Cookie", "b=2")])
        #expect(headers["content-type"] == "text/html")
        #expect(headers["CONTENT-TYPE"] == "text/html")
        #expect(headers.values("SET-COOKIE") == ["a=1", "b=2"])
        #expect(!HTTPHeaders.sameName("x[", "x{"))
        #expect(!HTTPHeaders.sameName("ab", "abc"))
    }
}
