import Formats
import Foundation
import Storage

/// The verifiable draw of a lottery meetup. When signups open, the page shows the SHA-256 of a
/// secret seed; at the deadline the seed is revealed, and anyone can recompute the order:
/// entrants sorted by `sha256hex(seed + ":" + username)`, the first `capacity` get places, the
/// rest wait in that order (`printf '%s' "$SEED:mina" | sha256sum`).
enum Lottery {
    /// A new seed and its commitment.
    static func seed() -> (seed: String, commitment: String) {
        let seed = Crypto.randomToken(32)
        return (seed, rank(seed))
    }

    /// SHA-256 of the text's UTF-8, in lowercase hex.
    static func rank(_ text: String) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var hex = [UInt8]()
        hex.reserveCapacity(64)
        for byte in Crypto.sha256(Array(text.utf8)) {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }
}

extension App {
    /// What is due whatever page is opened: lotteries past their deadline are drawn, places
    /// not re-confirmed in time are given up, finished mail older than a month is forgotten.
    /// The server runs it at start and every minute.
    public func sweep(now: Date = Date()) throws {
        // Servers sharing a database take turns; each step would be right twice, but once is enough.
        try database.asLeader(of: "sweep") {
            try settleMeetups(now: now)
            try database.mail.pruneOutbox(before: now.addingTimeInterval(-30 * 86_400))
            if database.isShared { try database.security.pruneRateEvents(before: now.addingTimeInterval(-86_400)) }
            sweepPayments(now: now)
            try mergeSearchIndexes(now: now)
        }
        // What that changed may be news to mail at once.
        mailSender?.wake()
    }

    /// What falls due for meetups, before anyone sees one: lotteries past their deadline drawn,
    /// places not re-confirmed in time given up. Each is a read when nothing is due (almost
    /// always), and right when two servers do it at once.
    func settleMeetups(now: Date) throws {
        let drawn = try database.meetups.drawLotteries(now: now, rank: Lottery.rank)
        let expired = try database.meetups.expireConfirmations(now: now)
        if !drawn.isEmpty || expired > 0 { mailSender?.wake() }
    }
}
