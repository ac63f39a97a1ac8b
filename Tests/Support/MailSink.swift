import Foundation

/// A real SMTP server on loopback for one test (`Tests/Doubles/smtp_server.py`, aiosmtpd), and the
/// messages it received, decoded as a mail reader would.
public final class MailSink: @unchecked Sendable {
    public let port: Int
    public let directory: String
    private let process: Process
    private let input: Pipe

    public struct Options {
        public var refuse = 0
        public var rejectDomain: String?
        public var tls: (certificate: String, key: String)?
        public var auth: String?
        /// A fixed port, to come back on after `stop()`; 0 for any.
        public var port = 0
        public var directory: String?
        public init() {}
    }

    public init(_ options: Options = Options()) throws {
        directory = options.directory ?? NSTemporaryDirectory() + "moim-mail-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        process = Process()
        process.executableURL = URL(fileURLWithPath: ProcessInfo.processInfo.environment["MOIM_TEST_PYTHON"] ?? "/usr/bin/python3")
        var arguments = [Self.script, "--dir", directory, "--port", String(options.port), "--refuse", String(options.refuse)]
        if let domain = options.rejectDomain { arguments += ["--reject-domain", domain] }
        if let tls = options.tls { arguments += ["--tls", tls.certificate, tls.key] }
        if let auth = options.auth { arguments += ["--auth", auth] }
        process.arguments = arguments
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        // A client that gives up on a certificate makes aiosmtpd print a traceback: expected here.
        process.standardError = FileHandle.nullDevice
        try process.run()
        // "port N", once it listens.
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw SinkError("smtp_server.py did not start (is python3-aiosmtpd installed?)") }
            line += chunk
        }
        guard let text = String(data: line, encoding: .utf8), text.hasPrefix("port "),
              let port = Int(text.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw SinkError("smtp_server.py said \(String(decoding: line, as: UTF8.self))")
        }
        self.port = port
    }

    deinit { stop() }

    public func stop() {
        guard process.isRunning else { return }
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    public var url: String { "smtp://127.0.0.1:\(port)" }

    /// Every message received so far, oldest first.
    public func messages() -> [ReceivedMail] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".eml") }.sorted()
        return names.compactMap { FileManager.default.contents(atPath: "\(directory)/\($0)").map(ReceivedMail.init) }
    }

    /// Waits up to `timeout` seconds for at least `count` messages.
    public func waitForMessages(_ count: Int, timeout: Double = 10) -> [ReceivedMail] {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let received = messages()
            if received.count >= count || Date() > deadline { return received }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    private static var script: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tests/Doubles/smtp_server.py").path
    }

    struct SinkError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

/// A received message: its headers (unfolded, encoded words decoded) and its text and HTML parts.
public struct ReceivedMail: Sendable {
    public let raw: String
    public let headers: [(name: String, value: String)]
    public let text: String
    public let html: String

    init(_ data: Data) {
        raw = String(decoding: data, as: UTF8.self)
        let (head, body) = Self.split(raw)
        headers = Self.headers(head)
        var text = "", html = ""
        let type = headers.first { $0.name.lowercased() == "content-type" }?.value ?? ""
        if let range = type.range(of: "boundary=\"") {
            let boundary = type[range.upperBound...].prefix { $0 != "\"" }
            for part in body.components(separatedBy: "--\(boundary)").dropFirst() where !part.hasPrefix("--") {
                let (partHead, partBody) = Self.split(part.hasPrefix("\r\n") ? String(part.dropFirst(2)) : part)
                let decoded = Data(base64Encoded: partBody.filter { !$0.isWhitespace }).map { String(decoding: $0, as: UTF8.self) } ?? partBody
                if partHead.contains("text/plain") { text = decoded } else if partHead.contains("text/html") { html = decoded }
            }
        }
        self.text = text
        self.html = html
    }

    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    public var subject: String { header("Subject") ?? "" }
    /// The envelope recipient the server was given.
    public var recipient: String { header("X-Sink-To") ?? "" }

    /// Every `https?://` link in the text part.
    public var links: [String] {
        text.split(whereSeparator: { $0.isWhitespace }).map(String.init).filter { $0.hasPrefix("http://") || $0.hasPrefix("https://") }
    }

    private static func split(_ text: String) -> (String, String) {
        guard let range = text.range(of: "\r\n\r\n") else { return (text, "") }
        return (String(text[..<range.lowerBound]), String(text[range.upperBound...]))
    }

    private static func headers(_ head: String) -> [(name: String, value: String)] {
        var result: [(name: String, value: String)] = []
        for line in head.components(separatedBy: "\r\n") {
            if line.hasPrefix(" ") || line.hasPrefix("\t"), let last = result.popLast() {
                result.append((last.name, last.value + line))
            } else if let colon = line.firstIndex(of: ":") {
                result.append((String(line[..<colon]), String(line[line.index(after: colon)...].drop { $0 == " " })))
            }
        }
        return result.map { ($0.name, decodeWords($0.value)) }
    }

    /// RFC 2047 `=?UTF-8?B?…?=` words, as the sender writes them.
    private static func decodeWords(_ value: String) -> String {
        guard value.contains("=?UTF-8?B?") else { return value }
        var bytes = Data()
        for word in value.split(separator: " ") {
            guard word.hasPrefix("=?UTF-8?B?"), word.hasSuffix("?="),
                  let data = Data(base64Encoded: String(word.dropFirst(10).dropLast(2))) else { return value }
            bytes += data
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
