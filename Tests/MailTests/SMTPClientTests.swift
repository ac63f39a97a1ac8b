import Foundation
import Testing
import TestSupport
@testable import Mail

/// The client against a real SMTP server (aiosmtpd) on loopback.
@Suite struct SMTPClientTests {
    private func message(to address: String = "mina@example.com", subject: String = "한강 러닝 — 비밀번호 재설정") -> MailMessage {
        MailMessage(
            from: MailAddress(name: "Moim", address: "moim@run.example.org"), to: MailAddress(name: "미나", address: address),
            subject: subject, text: "Hello Mina\n.a line starting with a dot\n", html: "<p>Hello <b>Mina</b></p>",
            headers: [("List-Unsubscribe", "<https://run.example.org/unsubscribe/abc>")], domain: "run.example.org")
    }

    private func send(_ message: MailMessage, to sink: MailSink, server: String? = nil, trusting: String? = nil) throws(SMTPError) {
        let client = SMTPClient(server: SMTPServer(url: server ?? sink.url)!, heloName: "run.example.org", timeout: 5, trustedCertificates: trusting)
        try client.connect()
        defer { client.quit() }
        try client.send(from: message.from.address, to: message.to.address, message: try! message.rendered())
    }

    @Test func aMessageArrivesWithItsPartsAndHeadersIntact() throws {
        let sink = try MailSink()
        try send(message(), to: sink)
        let received = try #require(sink.waitForMessages(1).first)
        #expect(received.subject == "한강 러닝 — 비밀번호 재설정")
        #expect(received.recipient == "mina@example.com")
        #expect(received.text == "Hello Mina\n.a line starting with a dot\n")
        #expect(received.html == "<p>Hello <b>Mina</b></p>")
        #expect(received.header("List-Unsubscribe") == "<https://run.example.org/unsubscribe/abc>")
        #expect(received.header("Message-ID")?.hasSuffix("@run.example.org>") == true)
        #expect(received.header("X-Sink-TLS") == "no")
        // No line is longer than SMTP allows.
        #expect(received.raw.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 998 })
    }

    @Test func startTLSIsUsedWhenOfferedAndTheCertificateIsChecked() throws {
        let certificate = try TestCertificate.make()
        let sink = try MailSink({ var options = MailSink.Options(); options.tls = (certificate.certificate, certificate.key); return options }())
        // Trusted: the message goes over TLS.
        try send(message(), to: sink, server: "smtp://localhost:\(sink.port)", trusting: certificate.certificate)
        #expect(sink.waitForMessages(1).first?.header("X-Sink-TLS") == "yes")
        // Not trusted: nothing is sent, and the error says why (no fallback to plain text).
        #expect {
            try send(message(), to: sink, server: "smtp://localhost:\(sink.port)")
        } throws: { error in
            guard case SMTPError.transient(let reason) = error else { return false }
            return reason.contains("TLS")
        }
        #expect(sink.messages().count == 1)
    }

    @Test func aTrustedCertificateForAnotherNameIsRefused() throws {
        let certificate = try TestCertificate.make(names: "DNS:mail.example.org")
        let sink = try MailSink({ var options = MailSink.Options(); options.tls = (certificate.certificate, certificate.key); return options }())
        #expect(throws: SMTPError.self) { try send(message(), to: sink, server: "smtp://localhost:\(sink.port)", trusting: certificate.certificate) }
        #expect(sink.messages().isEmpty)
    }

    @Test func credentialsAreSentOverTLSAndAWrongPasswordIsAnError() throws {
        let certificate = try TestCertificate.make()
        var options = MailSink.Options()
        options.tls = (certificate.certificate, certificate.key)
        options.auth = "moim:s3cret p@ss"
        let sink = try MailSink(options)
        try send(message(), to: sink, server: "smtp://moim:s3cret%20p%40ss@localhost:\(sink.port)", trusting: certificate.certificate)
        let received = try #require(sink.waitForMessages(1).first)
        #expect(received.header("X-Sink-Auth") == "yes")
        #expect(received.header("X-Sink-TLS") == "yes")
        #expect(throws: SMTPError.self) {
            try send(message(), to: sink, server: "smtp://moim:wrong@localhost:\(sink.port)", trusting: certificate.certificate)
        }
        #expect(sink.messages().count == 1)
    }

    @Test func aBusyServerIsATemporaryFailureAndARejectedRecipientAPermanentOne() throws {
        var options = MailSink.Options()
        options.refuse = 1
        options.rejectDomain = "nowhere.test"
        let sink = try MailSink(options)
        let client = SMTPClient(server: SMTPServer(url: sink.url)!, heloName: "run.example.org", timeout: 5)
        try client.connect()
        #expect(throws: SMTPError.transient("the message: 451 4.3.0 Mailbox busy, try again later")) {
            try client.send(from: "moim@run.example.org", to: "mina@example.com", message: try message().rendered())
        }
        #expect {
            try client.send(from: "moim@run.example.org", to: "ghost@nowhere.test", message: try message(to: "ghost@nowhere.test").rendered())
        } throws: { error in
            if case SMTPError.permanent = error { true } else { false }
        }
        // The session goes on after both.
        try client.send(from: "moim@run.example.org", to: "mina@example.com", message: try message().rendered())
        client.quit()
        #expect(sink.waitForMessages(1).map(\.recipient) == ["mina@example.com"])
    }

    @Test func aServerThatIsDownIsATemporaryFailure() throws {
        let sink = try MailSink()
        let url = sink.url
        sink.stop()
        let client = SMTPClient(server: SMTPServer(url: url)!, heloName: "run.example.org", timeout: 2)
        #expect(throws: SMTPError.self) { try client.connect() }
    }

    @Test func aPasswordIsNotSentInTheClearToAnotherMachine() throws {
        let server = try #require(SMTPServer(url: "smtp://user:pass@mail.example.org"))
        #expect(server.port == 587)
        #expect(!server.isLoopback)
        #expect(try #require(SMTPServer(url: "smtp://user:pass@127.0.0.1:2525")).isLoopback)
    }
}
