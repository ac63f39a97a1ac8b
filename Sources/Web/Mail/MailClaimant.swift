import Foundation

/// Who holds a claim on outbox mail: this machine and process as one number (the machine in
/// the high 32 bits, the pid in the low), so that claims hold across servers sharing a
/// database, and a claim whose process died on this machine is let go at once.
enum MailClaimant {
    /// This machine: 31 bits of the FNV-1a hash of its machine id (its host name without one).
    static let machine: Int64 = {
        let id = (try? String(contentsOfFile: "/etc/machine-id", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        let text = id.flatMap { $0.isEmpty ? nil : $0 } ?? ProcessInfo.processInfo.hostName
        let hash = text.utf8.reduce(UInt32(2_166_136_261)) { ($0 ^ UInt32($1)) &* 16_777_619 }
        return Int64(hash & 0x7FFF_FFFF)
    }()

    static func id(pid: Int32) -> Int64 {
        machine << 32 | Int64(UInt32(bitPattern: pid))
    }

    static var current: Int64 { id(pid: getpid()) }

    /// False only for a claimant of this machine whose process is gone: another machine's
    /// claims run out by themselves (five minutes).
    static func isAlive(_ claimant: Int64) -> Bool {
        guard claimant >> 32 == machine, let pid = Int32(exactly: claimant & 0xFFFF_FFFF) else { return true }
        return kill(pid, 0) == 0 || errno != ESRCH
    }
}
