import Foundation
import Network

/// Why a message was not handed over.
public enum SMTPError: Error, Equatable, CustomStringConvertible {
    /// Try again later: the server is down, busy (4xx), or the connection broke.
    case transient(String)
    /// The server refused this message for good (5xx to its sender, recipient or content).
    case permanent(String)

    public var description: String {
        switch self {
        case .transient(let reason): "temporary failure: \(reason)"
        case .permanent(let reason): "refused: \(reason)"
        }
    }
}

/// One SMTP session (RFC 5321) with the site's mail server: greeting, EHLO, STARTTLS when
/// offered (RFC 3207), AUTH PLAIN or LOGIN, then any number of messages.
///
/// A password is sent only over TLS, or to a server on this machine.
public final class SMTPClient {
    private let server: SMTPServer
    private let heloName: String
    private let timeout: Int
    private let trustedCertificates: String?
    private var transport: TCPTransport?
    private var reader = SMTPReplyReader()
    private var capabilities: [String] = []

    /// `trustedCertificates`: a PEM file of certificates to trust beside the system's (a
    /// private relay's own CA).
    public init(server: SMTPServer, heloName: String, timeout: Int = 30, trustedCertificates: String? = nil) {
        self.server = server
        self.heloName = heloName
        self.timeout = timeout
        self.trustedCertificates = trustedCertificates
    }

    public func connect() throws(SMTPError) {
        let transport = try transient { () throws(TransportError) in
            try TCPTransport(host: server.host, port: server.port, timeout: timeout)
        }
        self.transport = transport
        if server.security == .implicitTLS { try startTLS() }
        try expect(try reply(), "greeting")
        try hello()
        if !transport.isEncrypted, capabilities.contains("STARTTLS") {
            try expect(try command("STARTTLS"), "STARTTLS")
            // Bytes sent before the handshake would be read as if they came over TLS.
            guard !reader.hasLeftover else { throw .transient("the server sent data before TLS began") }
            try startTLS()
            try hello()
        }
        if let username = server.username {
            guard transport.isEncrypted || server.isLoopback else {
                throw .transient("\(server.host) offers no TLS; the password is not sent in the clear")
            }
            try authenticate(username: username, password: server.password ?? "")
        }
    }

    /// Hands one message over. A refusal that concerns only this message leaves the session
    /// usable for the next one.
    public func send(from sender: String, to recipient: String, message: [UInt8]) throws(SMTPError) {
        do {
            try expect(try command("MAIL FROM:<\(sender)>"), "MAIL FROM")
            try expect(try command("RCPT TO:<\(recipient)>"), "RCPT TO")
            let data = try command("DATA")
            guard data.code == 354 else { try expect(data, "DATA"); return }
            try write(Self.dotStuffed(message))
            try expect(try reply(), "the message")
        } catch {
            if case .permanent = error { _ = try? command("RSET") }
            throw error
        }
    }

    public func quit() {
        _ = try? command("QUIT")
        transport = nil
    }

    // MARK: - Steps

    private func hello() throws(SMTPError) {
        let answer = try command("EHLO \(heloName)")
        try expect(answer, "EHLO")
        capabilities = answer.lines.dropFirst().map { $0.uppercased() }
    }

    private func authenticate(username: String, password: String) throws(SMTPError) {
        let mechanisms = capabilities.first { $0.hasPrefix("AUTH ") || $0.hasPrefix("AUTH=") }?
            .dropFirst(5).split(separator: " ").map(String.init) ?? []
        if mechanisms.contains("PLAIN") || !mechanisms.contains("LOGIN") {
            let token = Data(([0] + Array(username.utf8) + [0] + Array(password.utf8))).base64EncodedString()
            try expectAuthenticated(try command("AUTH PLAIN \(token)"))
        } else {
            try expect(try command("AUTH LOGIN"), "AUTH LOGIN")
            try expect(try command(Data(username.utf8).base64EncodedString()), "AUTH LOGIN")
            try expectAuthenticated(try command(Data(password.utf8).base64EncodedString()))
        }
    }

    private func expectAuthenticated(_ answer: SMTPReply) throws(SMTPError) {
        // A refused login is the operator's to fix; the mail waits meanwhile.
        guard answer.isPositive else { throw .transient("authentication failed: \(answer.text)") }
    }

    // MARK: - Wire

    private func command(_ line: String) throws(SMTPError) -> SMTPReply {
        try write(Array((line + "\r\n").utf8))
        return try reply()
    }

    private func reply() throws(SMTPError) -> SMTPReply {
        guard let transport else { throw .transient("not connected") }
        while true {
            do {
                if let reply = try reader.next() { return reply }
            } catch {
                throw .transient("the server's reply is not SMTP (\(error))")
            }
            let bytes = try transient { () throws(TransportError) in try transport.read() }
            guard !bytes.isEmpty else { throw .transient("the server closed the connection") }
            reader.append(bytes)
        }
    }

    private func write(_ bytes: [UInt8]) throws(SMTPError) {
        guard let transport else { throw .transient("not connected") }
        try transient { () throws(TransportError) in try transport.write(bytes) }
    }

    /// Starts TLS (at once for `smtps`, after `STARTTLS` otherwise).
    private func startTLS() throws(SMTPError) {
        guard let transport else { throw .transient("not connected") }
        try transient { () throws(TransportError) in try transport.startTLS(host: server.host, trusting: trustedCertificates) }
    }

    /// A broken connection is worth another try later.
    private func transient<T>(_ body: () throws(TransportError) -> T) throws(SMTPError) -> T {
        do { return try body() } catch { throw .transient(error.description) }
    }

    private func expect(_ reply: SMTPReply, _ step: String) throws(SMTPError) {
        if reply.isPositive { return }
        if reply.isPermanentFailure { throw .permanent("\(step): \(reply.text)") }
        throw .transient("\(step): \(reply.text)")
    }

    /// The message as DATA sends it: CRLF line ends, a line starting with `.` gets another
    /// (RFC 5321 §4.5.2), and the closing `.` line.
    static func dotStuffed(_ message: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(message.count + 64)
        var atLineStart = true
        for (index, byte) in message.enumerated() {
            if byte == UInt8(ascii: "\n"), index == 0 || message[index - 1] != UInt8(ascii: "\r") {
                output.append(UInt8(ascii: "\r"))
            }
            if atLineStart, byte == UInt8(ascii: ".") { output.append(UInt8(ascii: ".")) }
            output.append(byte)
            atLineStart = byte == UInt8(ascii: "\n")
        }
        if !atLineStart { output += Array("\r\n".utf8) }
        return output + Array(".\r\n".utf8)
    }
}
