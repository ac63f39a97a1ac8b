import Foundation
import Testing
@testable import Mail

@Suite struct MailMessageTests {
    private func message(name: String = "Mina", subject: String = "Hi", headers: [(name: String, value: String)] = []) -> MailMessage {
        MailMessage(from: MailAddress(name: "Moim", address: "moim@run.example.org"), to: MailAddress(name: name, address: "mina@example.com"),
                    subject: subject, text: "text", html: "<p>html</p>", headers: headers, date: Date(timeIntervalSince1970: 1_795_996_800),
                    domain: "run.example.org")
    }

    @Test(arguments: ["Mina\r\nBcc: all@example.com", "Mina\nBcc: all@example.com", "Mina\u{2028}Bcc", "Mi\u{0}na"])
    func aLineBreakInANameOrSubjectIsRefused(_ text: String) {
        #expect(throws: MailError.headerInjection) { try message(name: text).rendered() }
        #expect(throws: MailError.headerInjection) { try message(subject: text).rendered() }
        #expect(throws: MailError.headerInjection) { try message(headers: [("List-Unsubscribe", text)]).rendered() }
    }

    @Test(arguments: ["mina", "mina@", "@example.com", "mina@example.com>\r\nBcc: x@y", "mi na@example.com", "미나@example.com", "a<b@example.com"])
    func anAddressThatIsNotPlainIsRefused(_ address: String) {
        let message = MailMessage(from: MailAddress(address: "moim@run.example.org"), to: MailAddress(address: address),
                                  subject: "Hi", text: "", html: "", domain: "run.example.org")
        #expect(throws: MailError.self) { try message.rendered() }
    }

    @Test func nonASCIIHeadersAreEncodedWordsOfBoundedLength() throws {
        let subject = String(repeating: "한강 러닝 ", count: 20)
        let text = String(decoding: try message(name: "김미나 \"Mina\"", subject: subject).rendered(boundary: "b", messageID: "id"), as: UTF8.self)
        let head = text.components(separatedBy: "\r\n\r\n")[0]
        #expect(head.utf8.allSatisfy { $0 < 0x80 })
        #expect(head.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 78 })
        // Unfolded and decoded, the words give the subject back.
        let words = head.components(separatedBy: "\r\n").drop { !$0.hasPrefix("Subject:") }.prefix { $0.hasPrefix("Subject:") || $0.hasPrefix(" ") }
            .map { $0.replacingOccurrences(of: "Subject: ", with: "").trimmingCharacters(in: .whitespaces) }
        let decoded = words.compactMap { Data(base64Encoded: String($0.dropFirst(10).dropLast(2))) }.reduce(Data(), +)
        #expect(String(decoding: decoded, as: UTF8.self) == subject)
        #expect(head.contains("Date: Mon, 30 Nov 2026 00:00:00 +0000"))
        #expect(head.contains("Message-ID: <id@run.example.org>"))
    }

    @Test func aLongPlainNameIsFoldedNotOneOverlongLine() throws {
        // Found by the mail-message fuzz target.
        let text = String(decoding: try message(name: String(repeating: "r", count: 1_200)).rendered(), as: UTF8.self)
        #expect(text.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 78 })
    }

    @Test func dataLinesStartingWithADotAreDoubledAndTheMessageEnds() {
        let stuffed = SMTPClient.dotStuffed(Array("a\r\n.b\n..c\r\nd".utf8))
        #expect(String(decoding: stuffed, as: UTF8.self) == "a\r\n..b\r\n...c\r\nd\r\n.\r\n")
    }

    @Test func repliesAreReadHoweverTheBytesArrive() throws {
        var reader = SMTPReplyReader()
        for byte in Array("250-sink.test\r\n250-STARTTLS\r\n250 AUTH PLAIN\r\n220 ready\r\n".utf8) { reader.append([byte]) }
        #expect(try reader.next() == SMTPReply(code: 250, lines: ["sink.test", "STARTTLS", "AUTH PLAIN"]))
        #expect(try reader.next() == SMTPReply(code: 220, lines: ["ready"]))
        #expect(try reader.next() == nil)
        for bad in ["25 x\r\n", "250x\r\n", "250-a\r\n251 b\r\n", "650 no\r\n", String(repeating: "2", count: 3_000)] {
            var reader = SMTPReplyReader()
            reader.append(Array(bad.utf8))
            #expect(throws: SMTPProtocolError.self, "\(bad.prefix(20))") { try reader.next() }
        }
    }

    @Test func smtpAddressesParse() {
        let server = SMTPServer(url: "smtps://u%40x:p%3Aw@mail.example.org")
        #expect(server?.port == 465 && server?.security == .implicitTLS && server?.username == "u@x" && server?.password == "p:w")
        #expect(SMTPServer(url: "smtp://[::1]:2525")?.host == "::1")
        for bad in ["http://mail.example.org", "smtp://", "smtp://host/path", "smtp://host:99999", "smtp://us%0Der:p@host"] {
            #expect(SMTPServer(url: bad) == nil, "\(bad)")
        }
    }
}
