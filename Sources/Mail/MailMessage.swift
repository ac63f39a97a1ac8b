import Foundation

/// A mailbox: an optional display name and an address.
public struct MailAddress: Sendable, Equatable {
    public let name: String
    public let address: String

    public init(name: String = "", address: String) {
        self.name = name
        self.address = address
    }

    /// `Name <address>`; the name as an RFC 2047 encoded word when it is not plain ASCII
    /// words, so that nothing in it can end the header.
    func header() throws -> String {
        try MailMessage.checkAddress(address)
        try MailMessage.checkHeaderValue(name)
        guard !name.isEmpty else { return "<\(address)>" }
        // Long names are encoded too, since encoded words can be folded onto lines of their own.
        let plain = name.utf8.count <= 60
            && name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == " ") }
        return (plain ? name : MailMessage.encodedWords(name, room: 60).joined(separator: "\r\n ")) + " <\(address)>"
    }
}

/// One email with a plain-text and an HTML part (multipart/alternative), rendered to the
/// bytes SMTP's DATA sends: CRLF line ends, base64 bodies (no line over 76 characters),
/// non-ASCII header text as RFC 2047 encoded words.
///
/// A header value that holds a line break or another control character is refused, not
/// cleaned: it can only come from a bug or an attack (header injection).
public struct MailMessage: Sendable {
    public var from: MailAddress
    public var to: MailAddress
    public var subject: String
    public var text: String
    public var html: String
    /// Further headers, e.g. `List-Unsubscribe`.
    public var headers: [(name: String, value: String)]
    public var date: Date
    /// The right-hand side of the `Message-ID`: the site's host.
    public var domain: String

    public init(from: MailAddress, to: MailAddress, subject: String, text: String, html: String,
                headers: [(name: String, value: String)] = [], date: Date = Date(), domain: String) {
        self.from = from
        self.to = to
        self.subject = subject
        self.text = text
        self.html = html
        self.headers = headers
        self.date = date
        self.domain = domain
    }

    public func rendered(boundary: String = "=_moim_" + UUID().uuidString, messageID: String = UUID().uuidString) throws -> [UInt8] {
        try Self.checkHeaderValue(subject)
        try Self.checkHeaderValue(domain)
        var lines = [
            "From: " + (try from.header()),
            "To: " + (try to.header()),
            "Subject: " + Self.subjectHeader(subject),
            "Date: " + Self.date(date),
            "Message-ID: <\(messageID)@\(domain)>",
            "MIME-Version: 1.0",
        ]
        for header in headers {
            guard !header.name.isEmpty, header.name.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ":") }) else {
                throw MailError.headerInjection
            }
            try Self.checkHeaderValue(header.value)
            guard header.value.unicodeScalars.allSatisfy(\.isASCII) else { throw MailError.headerInjection }
            lines.append("\(header.name): \(header.value)")
        }
        lines += [
            "Content-Type: multipart/alternative;\r\n boundary=\"\(boundary)\"",
            "",
            "--\(boundary)",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: base64",
            "",
            Self.base64Lines(text),
            "--\(boundary)",
            "Content-Type: text/html; charset=utf-8",
            "Content-Transfer-Encoding: base64",
            "",
            Self.base64Lines(html),
            "--\(boundary)--",
            "",
        ]
        return Array(lines.joined(separator: "\r\n").utf8)
    }

    // MARK: - Headers

    static func checkHeaderValue(_ value: String) throws {
        if value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || $0 == "\u{2028}" || $0 == "\u{2029}" || $0 == "\u{85}" }) {
            throw MailError.headerInjection
        }
    }

    /// A plain address: ASCII, one `@`, nothing that would end the header or the `<…>`.
    static func checkAddress(_ address: String) throws {
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, address.utf8.count <= 254,
              address.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && !"<>()[]\\,;:\"".utf8.contains($0) })
        else { throw MailError.badAddress(address) }
    }

    static func subjectHeader(_ subject: String) -> String {
        let plain = subject.unicodeScalars.allSatisfy { $0.isASCII } && subject.utf8.count <= 68 && !subject.contains("=?")
        return plain ? subject : encodedWords(subject, room: 60).joined(separator: "\r\n ")
    }

    /// `=?UTF-8?B?…?=` words of at most `room` encoded characters each, never splitting a
    /// character between two words (RFC 2047 §5).
    static func encodedWords(_ text: String, room: Int) -> [String] {
        let perWord = (room - "=?UTF-8?B??=".count) / 4 * 3
        var words: [String] = []
        var chunk: [UInt8] = []
        for character in text {
            let bytes = Array(String(character).utf8)
            if !chunk.isEmpty, chunk.count + bytes.count > perWord {
                words.append("=?UTF-8?B?\(Data(chunk).base64EncodedString())?=")
                chunk = []
            }
            chunk += bytes
        }
        if !chunk.isEmpty || words.isEmpty { words.append("=?UTF-8?B?\(Data(chunk).base64EncodedString())?=") }
        return words
    }

    static func base64Lines(_ text: String) -> String {
        Data(text.utf8).base64EncodedString(options: [.lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed])
    }

    /// RFC 5322's date: `Tue, 24 Nov 2026 21:56:17 +0000`.
    static func date(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.weekday, .day, .month, .year, .hour, .minute, .second], from: date)
        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let weekday = weekdays[((parts.weekday ?? 1) - 1) % 7]
        let month = months[((parts.month ?? 1) - 1) % 12]
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return "\(weekday), \(parts.day ?? 1) \(month) \(parts.year ?? 1970) \(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) +0000"
    }
}

public enum MailError: Error, Equatable, CustomStringConvertible {
    /// A line break or control character in a header: refused.
    case headerInjection
    case badAddress(String)

    public var description: String {
        switch self {
        case .headerInjection: "a header value holds a line break or a control character"
        case .badAddress(let address): "not a plain email address: \(address.debugDescription)"
        }
    }
}
