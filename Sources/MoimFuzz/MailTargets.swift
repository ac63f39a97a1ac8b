import Foundation
@testable import Mail
@testable import Web

enum MailTargets {
    /// A mail server's replies, however the bytes are split: the same replies (or the same
    /// error) whether read at once or a byte at a time, each with a code and bounded lines.
    static func smtpReply(_ bytes: UnsafeBufferPointer<UInt8>) {
        func read(chunk: Int) -> [String] {
            var reader = SMTPReplyReader()
            var replies: [String] = []
            var offset = 0
            while offset < bytes.count {
                reader.append(bytes[offset..<min(offset + chunk, bytes.count)])
                offset += chunk
                do {
                    while let reply = try reader.next() {
                        guard (200...599).contains(reply.code), reply.lines.count <= SMTPReplyReader.maxLines,
                              reply.lines.allSatisfy({ $0.utf8.count <= SMTPReplyReader.maxLine }) else { violated("an SMTP reply out of bounds") }
                        replies.append(reply.text)
                    }
                } catch {
                    return replies + ["error \(error)"]
                }
            }
            return replies
        }
        guard read(chunk: max(bytes.count, 1)) == read(chunk: 1) else { violated("replies depend on how the bytes arrived") }
    }

    /// A message from outside text: an address the signup form accepts always makes a
    /// message; a name or subject never adds a header, and no header line is left bare.
    static func mailMessage(_ bytes: UnsafeBufferPointer<UInt8>) {
        let parts = String(decoding: bytes, as: UTF8.self).split(separator: "\u{1}", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        let address = parts[0], name = parts.count > 1 ? parts[1] : "", subject = parts.count > 2 ? parts[2] : ""
        let message = MailMessage(from: MailAddress(name: "Moim", address: "moim@run.example.org"), to: MailAddress(name: name, address: address),
                                  subject: subject, text: subject, html: name, domain: "run.example.org")
        guard let rendered = try? message.rendered() else {
            let controls = (name + subject).unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || [0x85, 0x2028, 0x2029].contains($0.value) }
            if SignupForm.isValidEmail(address), !controls { violated("a valid address and plain text made no message") }
            return
        }
        let text = String(decoding: rendered, as: UTF8.self)
        let head = text.components(separatedBy: "\r\n\r\n")[0].components(separatedBy: "\r\n")
        let names = head.filter { !$0.hasPrefix(" ") }.map { $0.prefix { $0 != ":" } }
        guard names == ["From", "To", "Subject", "Date", "Message-ID", "MIME-Version", "Content-Type"] else { violated("a header was added: \(names)") }
        guard rendered.allSatisfy({ $0 < 0x80 }), !text.replacingOccurrences(of: "\r\n", with: "").contains(where: { $0 == "\r" || $0 == "\n" }),
              head.allSatisfy({ $0.utf8.count <= 998 }) else { violated("a bare line break or non-ASCII byte in the message") }
    }

    /// A token from a mail's link: only 43 base64url characters of 32 bytes hash to a lookup.
    static func mailLink(_ bytes: UnsafeBufferPointer<UInt8>) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard App.emailTokenHash(text) != nil else { return }
        guard text.utf8.count == 43, text.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else {
            violated("a token that is not 43 base64url characters was accepted")
        }
    }
}
