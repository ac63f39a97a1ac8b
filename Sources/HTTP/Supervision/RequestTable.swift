import Foundation
import Glibc

/// A few kilobytes of memory shared between a supervisor and one serving process: a slot per
/// handler thread holding the request it runs, and the requests under quarantine.
///
/// The serving process writes its slots (each thread only its own) and reads the quarantine
/// once, when it starts; the supervisor reads the slots only after the process has died, and
/// writes the quarantine before starting the next one. So no lock is needed.
public final class RequestTable: RequestWitness, @unchecked Sendable {
    static let slots = 64
    static let entryBytes = 256
    static let quarantineEntries = 32
    static let size = (slots + quarantineEntries) * entryBytes

    /// The descriptor a serving process inherits to open the same table.
    public let fd: Int32
    private let base: UnsafeMutableRawPointer
    private let refused: [String: Date]

    /// A new table, for a supervisor about to start a serving process.
    init(quarantine: [String: Date]) throws {
        var template = Array((NSTemporaryDirectory() + "/moim-requests-XXXXXX").utf8CString)
        fd = mkstemp(&template)
        guard fd >= 0 else { throw HTTPServerError.system("mkstemp", errno) }
        unlink(template)
        guard ftruncate(fd, off_t(Self.size)) == 0, let mapped = Self.map(fd) else {
            close(fd)
            throw HTTPServerError.system("ftruncate/mmap", errno)
        }
        base = mapped
        refused = [:]
        for (index, (key, until)) in quarantine.sorted(by: { $0.key < $1.key }).prefix(Self.quarantineEntries).enumerated() {
            let entry = base + (Self.slots + index) * Self.entryBytes
            entry.storeBytes(of: until.timeIntervalSince1970, as: Double.self)
            Self.write(key, to: entry + 8, capacity: Self.entryBytes - 8)
        }
    }

    /// The table a supervisor passed down as `fd`, in the serving process.
    init(adopting fd: Int32) throws {
        guard let mapped = Self.map(fd) else { throw HTTPServerError.system("mmap", errno) }
        self.fd = fd
        base = mapped
        var refused: [String: Date] = [:]
        for index in 0..<Self.quarantineEntries {
            let entry = base + (Self.slots + index) * Self.entryBytes
            let key = Self.read(entry + 8)
            guard !key.isEmpty else { continue }
            refused[key] = Date(timeIntervalSince1970: entry.load(as: Double.self))
        }
        self.refused = refused
    }

    deinit {
        munmap(base, Self.size)
        close(fd)
    }

    /// What identifies a request for quarantine: its method and path, without the query, so
    /// that a changed query string cannot get a poison page past it.
    static func key(_ request: HTTPRequest) -> String {
        request.method.rawValue + " " + request.path
    }

    public func begin(slot: Int, _ request: HTTPRequest) {
        guard (0..<Self.slots).contains(slot) else { return }
        Self.write(Self.key(request), to: base + slot * Self.entryBytes, capacity: Self.entryBytes)
    }

    public func end(slot: Int) {
        guard (0..<Self.slots).contains(slot) else { return }
        (base + slot * Self.entryBytes).storeBytes(of: 0, as: UInt16.self)
    }

    public func isQuarantined(_ request: HTTPRequest) -> Bool {
        guard !refused.isEmpty, let until = refused[Self.key(request)] else { return false }
        return until > Date()
    }

    /// The requests in flight when the serving process stopped.
    var inFlight: [String] {
        (0..<Self.slots).map { Self.read(base + $0 * Self.entryBytes) }.filter { !$0.isEmpty }
    }

    // MARK: - Entries: a UInt16 length, then that many bytes of UTF-8

    private static func map(_ fd: Int32) -> UnsafeMutableRawPointer? {
        let mapped = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
        return mapped == MAP_FAILED ? nil : mapped
    }

    private static func write(_ text: String, to entry: UnsafeMutableRawPointer, capacity: Int) {
        let bytes = Array(text.utf8.prefix(capacity - 2))
        bytes.withUnsafeBytes { buffer in
            if let source = buffer.baseAddress { (entry + 2).copyMemory(from: source, byteCount: buffer.count) }
        }
        entry.storeBytes(of: UInt16(bytes.count), as: UInt16.self)
    }

    private static func read(_ entry: UnsafeMutableRawPointer) -> String {
        let count = min(Int(entry.load(as: UInt16.self)), entryBytes - 2)
        return String(decoding: UnsafeRawBufferPointer(start: entry + 2, count: count), as: UTF8.self)
    }
}
