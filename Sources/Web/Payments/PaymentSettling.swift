import Foundation
import Network
import Storage

extension App {
    /// Asks the provider about the payment and applies its answer: the one path the browser's
    /// return, both webhooks and the sweep take, so that whichever comes first settles it and
    /// the others change nothing. Money Moim would not take is given back at once (the sweep
    /// tries again if the provider is down).
    @discardableResult
    func settle(_ payment: Payment, now: Date = Date()) throws -> (Payment, Settlement) {
        guard let provider = paymentProviders.provider(payment.provider) else { throw PaymentAPIError.unavailable("\(payment.provider) is not configured") }
        var answer = try provider.lookup(payment)
        if answer.status == .pending, payment.state == .pending, now > payment.expiresAt {
            // Time is up: close it at the provider first, so that nothing can be paid after the verdict.
            try provider.expire(payment)
            answer = try provider.lookup(payment)
            if answer.status == .pending { answer.status = .cancelled }
        }
        let verdict = Self.verdict(payment, answer)
        let received = Money.whole(max(0, answer.amount - answer.refunded), answer.currency)
        let (settled, outcome) = try database.payments.settlePayment(id: payment.storedID, verdict: verdict, received: received, today: today(now), now: now)
        if outcome != .unchanged {
            log("payment \(settled.publicID) (\(settled.provider)) \(payment.state.rawValue) → \(settled.state.rawValue)"
                + (settled.failure.isEmpty ? "" : ": \(settled.failure)"))
        }
        switch outcome {
        case .refundDue:
            let reason = localizer.text(.payments.refund_reasons.voided, .en)
            do {
                return (try giveBack(settled, amount: nil, reason: reason, by: nil, now: now), outcome)
            } catch {
                log("payment \(settled.publicID): giving back \(settled.refundable) failed, the sweep will try again: \(error)")
            }
        case .joined, .applied, .duesPaid:
            mailReceipt(settled, refund: nil)
        case .unchanged, .closed:
            break
        }
        return (settled, outcome)
    }

    /// What the provider's answer means for this payment: paid only when exactly the amount
    /// and currency asked for came in.
    static func verdict(_ payment: Payment, _ answer: ProviderPayment) -> PaymentVerdict {
        switch answer.status {
        case .pending: return .pending
        case .cancelled: return .cancelled
        case .failed(let why): return .failed(why)
        case .paid:
            let kept = answer.amount - answer.refunded
            guard let asked = Money.minor(payment.amount, payment.currency) else { return .mismatched(received: 0, why: "amount out of range") }
            if answer.currency == payment.currency, answer.amount == asked, answer.refunded == 0 { return .paid(reference: answer.transaction) }
            let why = "paid \(answer.amount) \(answer.currency) (minor units), \(payment.amount) \(payment.currency) asked"
            return .mismatched(received: Money.whole(max(0, kept), answer.currency), why: why)
        }
    }

    /// Gives back `amount` whole units (nil: all that is left) through the provider and
    /// records it; a refund the provider made but the database missed is recorded by the next
    /// try, under the same key.
    @discardableResult
    func giveBack(_ payment: Payment, amount: Int?, reason: String, by staffID: Int64?, now: Date = Date()) throws -> Payment {
        guard let provider = paymentProviders.provider(payment.provider) else { throw PaymentAPIError.unavailable("\(payment.provider) is not configured") }
        let minor = try amount.map { amount throws(PaymentAPIError) in
            guard let minor = Money.minor(amount, payment.currency) else { throw .malformed("amount out of range") }
            return minor
        }
        let key = "moim-refund-\(payment.publicID)-\(payment.refundedAmount)-\(amount ?? 0)"
        let refund = try provider.refund(payment, amount: minor, reason: reason, key: key)
        let given = min(Money.whole(refund.amount, payment.currency), payment.refundable)
        let updated = try database.payments.recordRefund(paymentID: payment.storedID, refundID: refund.id, amount: given, reason: reason, by: staffID,
                                                today: today(now), now: now)
        log("payment \(payment.publicID): \(given) \(payment.currency) given back (\(refund.id))")
        mailReceipt(updated, refund: given)
        return updated
    }

    func log(_ line: String) {
        FileHandle.standardError.write(Data((line.split(whereSeparator: \.isNewline).joined(separator: " ") + "\n").utf8))
    }

    /// A receipt for money paid, or a notice of money given back, in the member's language.
    func mailReceipt(_ payment: Payment, refund: Int?) {
        guard configuration.mail != nil, let userID = payment.userID else { return }
        do {
            guard let user = try database.accounts.user(id: userID), try database.mail.mailSettings(userID: userID).isVerified(user.email) else { return }
            let language = mailLanguage(user)
            let crew = try database.crews.crew(id: payment.crewID)
            let arguments = ["amount": money(refund ?? payment.amount, payment.currency, language), "crew": crew?.name ?? "",
                             "what": payment.orderName, "reason": payment.refundReason]
            let sentence = localizer.text(refund == nil ? .payments.mail.paid : .payments.mail.refunded, language, arguments)
            let subject = localizer.text(refund == nil ? .payments.mail.paid_subject : .payments.mail.refunded_subject, language, arguments)
            let view = NoticeMail(frame: frame(user, subject: subject, language: language), greeting: greeting(user, language), sentence: sentence,
                                  meetupTitle: refund != nil && !payment.refundReason.isEmpty ? payment.refundReason : payment.orderName,
                                  link: siteOrigin + Paths.payment(payment.publicID), action: localizer.text(.payments.mail.action, language))
            try enqueueMail(view, subject: subject, to: user, kind: .notice, language: language, lifetime: 7 * 86_400)
        } catch {
            log("payment \(payment.publicID): no receipt queued: \(error)")
        }
    }

    /// The minute sweep's share: attempts nobody came back from are asked about (and closed
    /// once their time is up), and money owed back is given back.
    func sweepPayments(now: Date = Date()) {
        guard !paymentProviders.isEmpty else { return }
        // A provider that hangs holds up the rest of the sweep at most this long; what is left waits a minute.
        let deadline = Date().addingTimeInterval(30)
        do {
            for payment in try database.payments.openPayments(uncheckedFor: 60, now: now) where Date() < deadline {
                do {
                    try settle(payment, now: now)
                } catch {
                    log("payment \(payment.publicID): the provider could not be asked: \(error)")
                }
            }
            for payment in try database.payments.refundsOwed() where Date() < deadline {
                do {
                    try giveBack(payment, amount: nil, reason: localizer.text(.payments.refund_reasons.voided, .en), by: nil, now: now)
                } catch {
                    log("payment \(payment.publicID): giving back failed again: \(error)")
                }
            }
        } catch {
            log("payment sweep failed: \(error)")
        }
    }
}
