import Testing
@testable import HTTP

/// Feeds `text` to a fresh parser and returns every request, or the error status.
private func parse(_ text: String, limits: HTTPRequestParser.Limits = .init()) -> (requests: [HTTPRequest], status: HTTPStatus?) {
    var parser = HTTPRequestParser(limits: limits)
    parser.append(Array(text.utf8))
    var requests: [HTTPRequest] = []
    do {
        while let request = try parser.nextRequest() { requests.append(request) }
    } catch {
        return (requests, error.status)
    }
    return (requests, nil)
}

private func status(_ text: String, limits: HTTPRequestParser.Limits = .init()) -> HTTPStatus? {
    parse(text, limits: limits).status
}

@Suite struct HTTPRequestParserTests {
    @Test func parsesASimpleGet() throws {
        let (requests, status) = parse("GET /u/mina?tab=posts HTTP/1.1\r\nHost: moim.test\r\nAccept: text/html\r\n\r\n")
        #expect(status == nil)
        let request = try #require(requests.first)
        #expect(request.method == .get)
        #expect(request.path == "/u/mina")
        #expect(request.query["tab"] == "posts")
        #expect(request.headers["ACCEPT"] == "text/html")
        #expect(request.keepAlive)
    }

    @Test func waitsForTheRestOfAHeadSentByteByByte() throws {
        var parser = HTTPRequestParser()
        let text = Array("POST /login HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello".utf8)
        for byte in text.dropLast() {
            parser.append([byte])
            #expect(try parser.nextRequest()?.target == nil)
        }
        parser.append([text.last!])
        let request = try #require(try parser.nextRequest())
        #expect(request.body == Array("hello".utf8))
    }

    @Test func returnsPipelinedRequestsInOrder() {
        let (requests, status) = parse("GET /a HTTP/1.1\r\nHost: a\r\n\r\nGET /b HTTP/1.1\r\nHost: a\r\n\r\nGET /c HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(status == nil)
        #expect(requests.map(\.target) == ["/a", "/b", "/c"])
    }

    @Test func decodesChunkedBodies() throws {
        let text = "POST /p HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nTrailer: x\r\n\r\n"
        let request = try #require(parse(text).requests.first)
        #expect(request.bodyText == "hello world")
    }

    @Test func knowsWhenTheConnectionMayStayOpen() throws {
        #expect(try #require(parse("GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n").requests.first).keepAlive == false)
        #expect(try #require(parse("GET / HTTP/1.0\r\n\r\n").requests.first).keepAlive == false)
        #expect(try #require(parse("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n").requests.first).keepAlive)
    }

    @Test func acceptsAbsoluteFormTargets() throws {
        let request = try #require(parse("GET http://moim.test/crews?q=run HTTP/1.1\r\nHost: moim.test\r\n\r\n").requests.first)
        #expect(request.target == "/crews?q=run")
    }

    @Test func skipsEmptyLinesBeforeTheRequestLine() {
        #expect(parse("\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n").requests.count == 1)
    }

    // MARK: - Hostile and malformed input

    @Test(arguments: [
        "GET / HTTP/1.1\nHost: a\n\n",                      // bare LF
        "GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n",     // obs-fold
        "GET / HTTP/1.1\r\nHost: a\r\n\tfolded\r\n\r\n",    // obs-fold with a tab
        "GET  / HTTP/1.1\r\nHost: a\r\n\r\n",               // two spaces
        "GET /\r\nHost: a\r\n\r\n",                         // HTTP/0.9 form
        "GET / HTTP/1.1 extra\r\nHost: a\r\n\r\n",          // extra token
        "GET / HTTX/1.1\r\nHost: a\r\n\r\n",                // bad protocol name
        "GET / HTTP/1.1\r\n\r\n",                           // missing Host
        "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",     // two Hosts
        "GET / HTTP/1.1\r\nHost : a\r\n\r\n",               // space before colon
        "GET / HTTP/1.1\r\nHost: a\r\nBad\u{1}Name: x\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: a\r\nX: a\u{0}b\r\n\r\n",   // NUL in a value
        "GET / HTTP/1.1\r\nHost: a\r\nNoColon\r\n\r\n",
        "GET /caf\u{E9} HTTP/1.1\r\nHost: a\r\n\r\n",       // non-ASCII in the target
        "GET /a b HTTP/1.1\r\nHost: a\r\n\r\n",
        "GET nope HTTP/1.1\r\nHost: a\r\n\r\n",             // not a path
        "G(T / HTTP/1.1\r\nHost: a\r\n\r\n",                // not a token
        "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello",
        "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello",
        "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5, 5\r\n\r\nhello",
        "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: +5\r\n\r\nhello",
        "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 0x5\r\n\r\nhello",
        "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n-5\r\nhello\r\n0\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFF\r\n",
        "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhelloXX0\r\n\r\n",
        "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    ])
    func refusesMalformedRequestsWith400(_ text: String) {
        #expect(status(text) == .badRequest)
    }

    @Test func answersUnknownMethodsWith501() {
        #expect(status("BREW /pot HTTP/1.1\r\nHost: a\r\n\r\n") == .notImplemented)
        #expect(status("TRACE / HTTP/1.1\r\nHost: a\r\n\r\n") == .notImplemented)
    }

    @Test func answersUnsupportedTransferCodingsWith501() {
        #expect(status("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n") == .notImplemented)
    }

    @Test func answersOtherHTTPVersionsWith505() {
        #expect(status("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n") == .httpVersionNotSupported)
        #expect(status("GET / HTTP/2.0\r\nHost: a\r\n\r\n") == .httpVersionNotSupported)
        #expect(status("GET / HTTP/3.0\r\nHost: a\r\n\r\n") == .httpVersionNotSupported)
    }

    @Test func answersALongRequestLineWith414() {
        let target = "/" + String(repeating: "a", count: 9000)
        #expect(status("GET \(target) HTTP/1.1\r\nHost: a\r\n\r\n") == .uriTooLong)
        // Known as soon as the limit passes, without waiting for the line to end.
        #expect(status("GET \(target)") == .uriTooLong)
    }

    @Test func answersHugeHeadersWith431() {
        let big = "X-Big: " + String(repeating: "b", count: 40 * 1024) + "\r\n"
        #expect(status("GET / HTTP/1.1\r\nHost: a\r\n\(big)\r\n") == .headerFieldsTooLarge)
        let many = (0..<101).map { "X-\($0): v\r\n" }.joined()
        #expect(status("GET / HTTP/1.1\r\nHost: a\r\n\(many)\r\n") == .headerFieldsTooLarge)
    }

    @Test func answersLargeBodiesWith413BeforeReadingThem() {
        #expect(status("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 2000000\r\n\r\n") == .contentTooLarge)
        #expect(status("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999\r\n\r\n") == .contentTooLarge)
        var limits = HTTPRequestParser.Limits()
        limits.body = 10
        let chunked = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n12345678\r\n8\r\n12345678\r\n0\r\n\r\n"
        #expect(status(chunked, limits: limits) == .contentTooLarge)
    }

    @Test func allowsLargerBodiesOnlyForUploadsItsPolicyAccepts() throws {
        let head = "POST /upload HTTP/1.1\r\nHost: a\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: 2000000\r\n\r\n"
        #expect(parse(head).status == .contentTooLarge)
        var parser = HTTPRequestParser()
        parser.allowsUpload = { $0.target == "/upload" }
        parser.append(Array(head.utf8))
        #expect(try parser.nextRequest() == nil)
        #expect(parser.isReadingBody)
        var other = HTTPRequestParser()
        other.allowsUpload = { $0.target == "/upload" }
        other.append(Array(head.replacingOccurrences(of: "/upload", with: "/login").utf8))
        #expect(throws: HTTPError.self) { try other.nextRequest() }
    }

    @Test func asksForContinueOnceForAnExpectingBody() throws {
        var parser = HTTPRequestParser()
        parser.append(Array("POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n".utf8))
        #expect(try parser.nextRequest()?.target == nil)
        let first = parser.takeContinueRequest(), second = parser.takeContinueRequest()
        #expect(first && !second)
        parser.append(Array("abc".utf8))
        #expect(try parser.nextRequest()?.bodyText == "abc")
    }

    @Test func neverCrashesOnRandomBytes() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("GET POST / HTTP/1.1\r\n:Host-Length Transfer-Encoding chunked 0123456789abcdef \t\u{0}%".utf8)
        for _ in 0..<2000 {
            var parser = HTTPRequestParser()
            let length = Int.random(in: 0..<300, using: &generator)
            parser.append((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
            while (try? parser.nextRequest()) != nil {}
        }
    }
}

