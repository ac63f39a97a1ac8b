import Formats
import Foundation
import Mail
import Storage

/// Delivers the outbox: claims what is due, hands it to the SMTP server in one session, and
/// records each result. A message stays in the outbox until the server accepted it; a
/// temporary failure (server down, 4xx, broken connection) retries it later, waiting twice as
/// long each time up to an hour; a permanent refusal (5xx) or three days without success
/// ends it as failed. A restart loses nothing: the outbox is in the database.
final class MailSender: Sendable {
    private let database: AppDatabase
    private let configuration: MailConfiguration
    private let heloName: String
    private let wakeUp = WakeUp()

    init(database: AppDatabase, configuration: MailConfiguration, heloName: String) {
        self.database = database
        self.configuration = configuration
        self.heloName = heloName
    }

    /// Something was queued: deliver now rather than at the next poll.
    func wake() { wakeUp.ring() }

    /// Waits until woken or until the poll interval passes.
    func waitForWork() { wakeUp.wait(seconds: configuration.pollInterval) }

    struct Delivery: Equatable {
        var sent = 0
        var deferred = 0
        var failed = 0
    }

    /// One pass over the due messages.
    @inline(never)
    @discardableResult
    func deliverDue(now: Date = Date()) throws -> Delivery {
        var delivery = Delivery()
        try database.mail.releaseClaims(ofDeadProcesses: MailClaimant.isAlive, now: now)
        let due = try database.mail.claimDueMail(owner: MailClaimant.current, now: now)
        guard !due.isEmpty else { return delivery }
        let client = SMTPClient(server: configuration.server, heloName: heloName, trustedCertificates: configuration.trustedCertificates)
        do {
            try client.connect()
        } catch {
            for mail in due { try retryOrGiveUp(mail, error, now: now, &delivery) }
            return delivery
        }
        defer { client.quit() }
        for mail in due {
            do {
                try client.send(from: mail.sender, to: mail.recipient, message: Array(mail.message))
            } catch .permanent(let reason) {
                log("mail \(mail.id) to \(mail.recipient) refused: \(reason)")
                try database.mail.markMailFailed(id: mail.id, error: reason, now: now)
                delivery.failed += 1
                continue
            } catch {
                try retryOrGiveUp(mail, error, now: now, &delivery)
                continue
            }
            try database.mail.markMailSent(id: mail.id, now: now)
            delivery.sent += 1
        }
        return delivery
    }

    private func retryOrGiveUp(_ mail: OutboxMail, _ error: SMTPError, now: Date, _ delivery: inout Delivery) throws {
        if now.timeIntervalSince(mail.createdAt) >= configuration.giveUpAfter {
            log("mail \(mail.id) to \(mail.recipient) given up after \(mail.attempts + 1) attempts: \(error)")
            try database.mail.markMailFailed(id: mail.id, error: error.description, now: now)
            delivery.failed += 1
            return
        }
        // 1, 2, 4 … minutes, at most an hour; the exponent is bounded so nothing overflows.
        let wait = min(configuration.firstRetry * pow(2, Double(min(mail.attempts, 20))), configuration.longestRetry)
        log("mail \(mail.id) to \(mail.recipient) deferred \(Checked.rounded(wait, in: 0...86_400) ?? 0) s: \(error)")
        try database.mail.markMailDeferred(id: mail.id, error: error.description, next: now.addingTimeInterval(wait))
        delivery.deferred += 1
    }

    private func log(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
