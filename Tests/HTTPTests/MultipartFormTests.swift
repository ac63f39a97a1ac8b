import Testing
import HTTP

@Suite struct MultipartFormTests {
    private func body(_ parts: [String], boundary: String = "XyZ") -> [UInt8] {
        Array((parts.map { "--\(boundary)\r\n\($0)\r\n" }.joined() + "--\(boundary)--\r\n").utf8)
    }

    @Test func readsFieldsAndFiles() throws {
        let form = try MultipartForm(parsing: body([
            "Content-Disposition: form-data; name=\"body\"\r\n\r\nhello\r\n#run 한강",
            "Content-Disposition: form-data; name=\"photo\"; filename=\"a b.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n\u{0}\u{1}binary--XyZ-not-a-boundary",
            "Content-Disposition: form-data; name=\"photo\"; filename=\"\"\r\nContent-Type: application/octet-stream\r\n\r\n",
        ]), boundary: "XyZ")
        #expect(form.fields["body"] == "hello\n#run 한강")
        #expect(form.files.count == 1)
        #expect(form.files.first?.filename == "a b.jpg")
        #expect(form.files.first?.data == Array("\u{0}\u{1}binary--XyZ-not-a-boundary".utf8))
    }

    @Test func findsTheBoundaryInTheContentType() {
        #expect(MultipartForm.boundary(contentType: "multipart/form-data; boundary=----WebKit123") == "----WebKit123")
        #expect(MultipartForm.boundary(contentType: "multipart/form-data; charset=utf-8; boundary=\"a b\"") == "a b")
        #expect(MultipartForm.boundary(contentType: "application/x-www-form-urlencoded") == nil)
        #expect(MultipartForm.boundary(contentType: "multipart/form-data") == nil)
    }

    @Test(arguments: [
        "no boundary at all",
        "--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nunterminated",
        "--XyZ\r\nno-colon-header\r\n\r\nx\r\n--XyZ--",
        "--XyZ\r\nContent-Disposition: form-data\r\n\r\nx\r\n--XyZ--",
    ])
    func refusesMalformedBodies(_ text: String) {
        #expect(throws: HTTPError.self) { try MultipartForm(parsing: Array(text.utf8), boundary: "XyZ") }
    }

    @Test func refusesTextThatIsNotUTF8() {
        let bytes = Array("--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n".utf8) + [0xFF, 0xFE] + Array("\r\n--XyZ--".utf8)
        #expect(throws: HTTPError.self) { try MultipartForm(parsing: bytes, boundary: "XyZ") }
    }

    @Test func refusesTooManyParts() {
        let parts = (0...MultipartForm.maximumParts).map { "Content-Disposition: form-data; name=\"f\($0)\"\r\n\r\nx" }
        #expect(throws: HTTPError.self) { try MultipartForm(parsing: body(parts), boundary: "XyZ") }
    }
}
