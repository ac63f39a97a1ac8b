/// A server's answer: a three-digit code and its lines of text (`250-…` lines, then `250 …`).
public struct SMTPReply: Sendable, Equatable {
    public let code: Int
    public let lines: [String]

    public var isPositive: Bool { (200..<400).contains(code) }
    /// 5xx: this message will never be taken as it is; 4xx: try again later.
    public var isPermanentFailure: Bool { (500..<600).contains(code) }
    public var text: String { "\(code) " + lines.joined(separator: " / ") }
}

/// Reads replies out of the bytes a server sends, however they arrive in pieces. Anything
/// but a well-formed reply is an error: the server is not one we can talk to.
public struct SMTPReplyReader: Sendable {
    /// RFC 5321 §4.5.3.1.5: 512 bytes a line; a little more is tolerated, not unbounded.
    static let maxLine = 2_048
    static let maxLines = 100

    private var buffer: [UInt8] = []
    private var pending: [String] = []
    private var pendingCode: Int?

    public init() {}

    /// Bytes from the connection.
    public mutating func append(_ bytes: some Collection<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// The next complete reply, nil if more bytes are needed.
    public mutating func next() throws(SMTPProtocolError) -> SMTPReply? {
        while let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            var line = buffer[..<end]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            buffer.removeSubrange(...end)
            guard line.count <= Self.maxLine else { throw .lineTooLong }
            guard line.count >= 3,
                  let code = Self.code(line.prefix(3)),
                  line.count == 3 || line[line.startIndex + 3] == UInt8(ascii: " ") || line[line.startIndex + 3] == UInt8(ascii: "-")
            else { throw .malformed }
            guard pendingCode == nil || pendingCode == code else { throw .malformed }
            pendingCode = code
            pending.append(String(decoding: line.dropFirst(4), as: UTF8.self))
            guard pending.count <= Self.maxLines else { throw .tooManyLines }
            if line.count == 3 || line[line.startIndex + 3] == UInt8(ascii: " ") {
                let reply = SMTPReply(code: code, lines: pending)
                pending = []
                pendingCode = nil
                return reply
            }
        }
        guard buffer.count <= Self.maxLine else { throw .lineTooLong }
        return nil
    }

    /// True when bytes past the last complete reply are waiting (a server that talks before
    /// its turn, which matters before STARTTLS: RFC 3207 §5).
    public var hasLeftover: Bool { !buffer.isEmpty || !pending.isEmpty }

    private static func code(_ digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for (index, digit) in digits.enumerated() {
            let allowed: ClosedRange<UInt8> = index == 0 ? UInt8(ascii: "2")...UInt8(ascii: "5") : UInt8(ascii: "0")...UInt8(ascii: "9")
            guard allowed.contains(digit) else { return nil }
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
        }
        return value
    }
}

public enum SMTPProtocolError: Error, Equatable {
    case malformed, lineTooLong, tooManyLines
}
