import Network
import Testing

struct HTTPClientResponseTests {
    private func parse(_ text: String, method: String = "GET") throws -> HTTPClientResponse {
        try HTTPClientResponse(parsing: Array(text.utf8), toA: method)
    }

    @Test func bodyByContentLength() throws {
        let answer = try parse("HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: 3\r\n\r\nabcdef")
        #expect(answer.status == 200)
        #expect(answer.header("content-type") == "image/png")
        #expect(answer.body == Array("abc".utf8))
    }

    @Test func chunkedBodyWithExtensionsAndTrailers() throws {
        let answer = try parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;x=y\r\nWiki\r\n5\r\npedia\r\n0\r\nTrailer: z\r\n\r\n")
        #expect(String(decoding: answer.body, as: UTF8.self) == "Wikipedia")
    }

    @Test func bodyToTheEndAndNoBodyForHead() throws {
        #expect(try parse("HTTP/1.0 404 Not Found\r\n\r\n<Error/>").body == Array("<Error/>".utf8))
        #expect(try parse("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n", method: "HEAD").body.isEmpty)
        #expect(try parse("HTTP/1.1 304 Not Modified\r\nETag: \"a\"\r\n\r\n").body.isEmpty)
    }

    @Test func malformedAnswersAreErrors() {
        let bad = [
            "", "HTTP/1.1 200 OK\r\n", "SMTP 220 hi\r\n\r\n", "HTTP/1.1 2000 OK\r\n\r\n", "HTTP/1.1 200 OK\r\nNoColon\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", "HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nab", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFF\r\n", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabcd\r\n0\r\n\r\n",
        ]
        for text in bad {
            #expect(throws: HTTPClientResponse.ParseError.self, "\(text.debugDescription)") { try parse(text) }
        }
    }

    @Test func endpoints() {
        #expect(HTTPEndpoint("http://127.0.0.1:9000") == HTTPEndpoint(isSecure: false, host: "127.0.0.1", port: 9000))
        #expect(HTTPEndpoint("https://s3.example.com/")?.port == 443)
        #expect(HTTPEndpoint("http://[::1]:9000")?.hostHeader == "[::1]:9000")
        for bad in ["ftp://x", "http://", "http://a:0", "http://a:65536", "http://a:x", "http://a/b", "http://u@a", "http://a\r\nX: y"] {
            #expect(HTTPEndpoint(bad) == nil, "\(bad)")
        }
    }
}
