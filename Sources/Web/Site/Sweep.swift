import Foundation
import Storage

extension App {
    /// What is due whatever page is opened: lotteries past their deadline are drawn, places
    /// not re-confirmed in time are given up, finished mail older than a month is forgotten,
    /// shared rate events older than a day dropped, open payments asked about, those going to
    /// a meetup reminded, and SQLite's search indexes merged. The server runs it at start and
    /// every minute.
    public func sweep(now: Date = Date()) throws {
        // Servers sharing a database take turns; each step would be right twice, but once is enough.
        try database.asLeader(of: "sweep") {
            try settleMeetups(now: now)
            try database.meetups.sendReminders(now: now)
            try database.mail.pruneOutbox(before: now.addingTimeInterval(-30 * 86_400))
            if database.isShared { try database.security.pruneRateEvents(before: now.addingTimeInterval(-86_400)) }
            sweepPayments(now: now)
            try mergeSearchIndexes(now: now)
            for file in try database.accounts.pruneDataExports(now: now) { media.deleteExport(file) }
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
