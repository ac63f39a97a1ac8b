import Foundation

/// What a member asks to pay: checked against the crew and the period in the transaction that
/// starts the attempt.
public struct PaymentRequest: Sendable {
    public var crewID: Int64
    public var userID: Int64
    public var purpose: Payment.Purpose
    public var duesPeriodID: Int64?
    public var provider: String
    /// What the page showed; refused when the crew's price is no longer this.
    public var amount: Int
    public var currency: String
    public var orderName: String
    /// For a crew that takes members by invite code.
    public var inviteCode: String?
    /// A new attempt's id (the provider knows it by this), made by the caller.
    public var publicID: String
    public var lifetime: TimeInterval

    public init(crewID: Int64, userID: Int64, purpose: Payment.Purpose, duesPeriodID: Int64?, provider: String, amount: Int, currency: String,
                orderName: String, inviteCode: String?, publicID: String, lifetime: TimeInterval) {
        self.crewID = crewID
        self.userID = userID
        self.purpose = purpose
        self.duesPeriodID = duesPeriodID
        self.provider = provider
        self.amount = amount
        self.currency = currency
        self.orderName = orderName
        self.inviteCode = inviteCode
        self.publicID = publicID
        self.lifetime = lifetime
    }
}

extension PaymentStore {
    // MARK: - Starting and settling

    /// Starts an attempt to pay, or gives back the one under way for the same thing at the
    /// same price and provider (two tabs, a double click). An attempt at another price or
    /// provider replaces the old one, which is cancelled (money that still reaches it is
    /// given back when it is settled). `isNew` says whether the provider must be told.
    public func openPayment(_ request: PaymentRequest, now: Date = Date()) throws -> (payment: Payment, isNew: Bool) {
        try database.write { db in
            guard let crew = try db.record(Crew.self, id: request.crewID), crew.hiddenAt == nil else { throw StorageError.notFound }
            let role = try database.crewRole(db, crewID: crew.storedID, userID: request.userID)
            switch request.purpose {
            case .join:
                guard role == nil else { throw StorageError.duplicate }
                guard !crew.isFull else { throw StorageError.full }
                if crew.joinPolicy == .invite {
                    guard let code = crew.inviteCode, request.inviteCode?.uppercased() == code else { throw StorageError.wrongInviteCode }
                }
                guard crew.feeAmount == request.amount, crew.feeCurrency == request.currency else { throw StorageError.priceChanged }
            case .dues:
                guard role?.isMember == true else { throw StorageError.forbidden }
                guard let period = try db.record(DuesPeriod.self, id: request.duesPeriodID), period.crewID == crew.id, period.closedAt == nil else {
                    throw StorageError.notFound
                }
                guard period.amount == request.amount, crew.feeCurrency == request.currency else { throw StorageError.priceChanged }
                let paid = try db.value("SELECT EXISTS (SELECT 1 FROM payments WHERE duesPeriodID = ? AND userID = ? AND state = 'paid')",
                                        [period.id, request.userID]) ?? false
                guard !paid else { throw StorageError.duplicate }
            }
            if var open = try db.record(Payment.self, """
                SELECT \(Payment.selection.bare) FROM payments WHERE crewID = ? AND userID = ? AND purpose = ? AND COALESCE(duesPeriodID, 0) = ? AND state = 'pending'
                """, [request.crewID, request.userID, request.purpose.rawValue, request.duesPeriodID ?? 0]) {
                if open.provider == request.provider, open.amount == request.amount, open.expiresAt > now.addingTimeInterval(60) {
                    return (open, false)
                }
                open.state = .cancelled
                open.failure = "replaced by a newer attempt"
                open.settledAt = now
                try db.update(open)
            }
            var payment = Payment(
                id: nil, publicID: request.publicID, crewID: request.crewID, userID: request.userID, purpose: request.purpose,
                duesPeriodID: request.duesPeriodID, provider: request.provider, providerReference: nil, amount: request.amount,
                currency: request.currency, orderName: request.orderName, state: .pending, receivedAmount: 0, refundedAmount: 0,
                checkoutURL: nil, failure: "", refundReason: "", createdAt: now, expiresAt: now.addingTimeInterval(request.lifetime),
                settledAt: nil, checkedAt: nil)
            payment.id = try db.insert(payment)
            return (payment, true)
        }
    }

    /// Notes the provider's own id for the attempt and where the browser pays.
    public func setPaymentCheckout(id: Int64, reference: String?, checkoutURL: String?) throws {
        try database.write { db in
            try db.execute("UPDATE payments SET providerReference = ?, checkoutURL = ? WHERE id = ? AND state = 'pending'", [reference, checkoutURL, id])
        }
    }

    /// Applies what the provider said, once: the first answer that settles a pending payment
    /// takes the member in (or files the application, or settles the dues) and writes its
    /// ledger line in the same transaction; every later answer changes nothing. Money that
    /// arrives for an attempt that is closed, at another amount, or for a place that is gone
    /// is voided: `refundDue` says how much to give back.
    public func settlePayment(id: Int64, verdict: PaymentVerdict, received: Int, today: String, now: Date = Date()) throws -> (Payment, Settlement) {
        try database.write { db in
            guard var payment = try db.record(Payment.self, id: id) else { throw StorageError.notFound }
            payment.checkedAt = now
            let outcome: Settlement
            var verdict = verdict
            if case .mismatched(let amount, let why) = verdict, amount <= 0 { verdict = .failed(why) }
            switch (payment.state, verdict) {
            case (.pending, .paid(let reference)):
                outcome = try takePayment(db, &payment, reference: reference, today: today, now: now)
            case (.pending, .mismatched(let amount, let why)), (.failed, .mismatched(let amount, let why)),
                 (.cancelled, .mismatched(let amount, let why)), (.expired, .mismatched(let amount, let why)):
                outcome = try void(db, &payment, received: amount, why: why, today: today, now: now)
            case (.failed, .paid), (.cancelled, .paid), (.expired, .paid):
                outcome = try void(db, &payment, received: received, why: "paid after the attempt had closed", today: today, now: now)
            case (.pending, .failed(let why)):
                payment.state = .failed
                payment.failure = String(why.prefix(300))
                payment.settledAt = now
                try line(db, payment, kind: .failure, amount: 0, note: payment.orderName + " — " + why, today: today, now: now)
                outcome = .closed
            case (.pending, .cancelled):
                payment.state = now > payment.expiresAt ? .expired : .cancelled
                payment.settledAt = now
                outcome = .closed
            default:
                outcome = .unchanged
            }
            try db.update(payment)
            return (payment, outcome)
        }
    }

    /// Records money the provider gave back (`refundID` is its id for it, so recording the same
    /// refund twice changes nothing). A paid payment given back in full is `refunded`.
    @discardableResult
    public func recordRefund(paymentID: Int64, refundID: String, amount: Int, reason: String, by staffID: Int64?, today: String,
                             now: Date = Date()) throws -> Payment {
        try database.write { db in
            guard var payment = try db.record(Payment.self, id: paymentID) else { throw StorageError.notFound }
            let known = try db.value("SELECT EXISTS (SELECT 1 FROM crewLedger WHERE provider = ? AND kind = 'refund' AND reference = ?)",
                                     [payment.provider, refundID]) ?? false
            if known { return payment }
            guard payment.state.holdsMoney, amount > 0, amount <= payment.refundable else { throw StorageError.rejected }
            payment.refundedAmount += amount
            if payment.state == .paid, payment.refundable == 0 { payment.state = .refunded }
            if !reason.isEmpty { payment.refundReason = String(reason.prefix(200)) }
            try db.update(payment)
            if payment.purpose == .join { db.changed(.crew(crewID: payment.crewID)) }
            // Money that never counted as the crew's (voided before it was taken): its refund is no expense either.
            let counted = try db.value("SELECT EXISTS (SELECT 1 FROM crewLedger WHERE paymentID = ? AND kind IN ('fee', 'dues'))", [payment.id]) ?? false
            let kind: LedgerEntry.Kind = counted ? .refund : .failure
            try line(db, payment, kind: kind, amount: kind == .refund ? amount : 0, note: payment.orderName + " — " + reason,
                     reference: refundID, by: staffID, today: today, now: now)
            return payment
        }
    }

    // MARK: - Reads

    public func payment(publicID: String) throws -> Payment? {
        try database.read { db in try db.record(Payment.self, "SELECT \(Payment.selection.bare) FROM payments WHERE publicID = ?", [publicID]) }
    }

    public func payment(provider: String, reference: String) throws -> Payment? {
        try database.read { db in try db.record(Payment.self, "SELECT \(Payment.selection.bare) FROM payments WHERE provider = ? AND providerReference = ?", [provider, reference]) }
    }

    /// Attempts under way that the provider has not been asked about for `interval`, oldest first.
    public func openPayments(uncheckedFor interval: TimeInterval, now: Date = Date(), limit: Int = 50) throws -> [Payment] {
        try database.read { db in
            try db.records(Payment.self, """
                SELECT \(Payment.selection.bare) FROM payments WHERE state = 'pending' AND createdAt < ? AND (checkedAt IS NULL OR checkedAt < ?) ORDER BY createdAt LIMIT ?
                """, [now.addingTimeInterval(-interval), now.addingTimeInterval(-interval), limit])
        }
    }

    /// Voided payments whose money has not all gone back yet.
    public func refundsOwed(limit: Int = 50) throws -> [Payment] {
        try database.read { db in
            try db.records(Payment.self, "SELECT \(Payment.selection.bare) FROM payments WHERE state = 'voided' AND refundedAmount < receivedAmount ORDER BY id LIMIT ?", [limit])
        }
    }

    /// The member's latest join fee for the crew that still holds money, if any.
    public func joinPayment(crewID: Int64, userID: Int64) throws -> Payment? {
        try database.read { db in
            try db.record(Payment.self, """
                SELECT \(Payment.selection.bare) FROM payments WHERE crewID = ? AND userID = ? AND purpose = 'join' AND state = 'paid' AND refundedAmount < receivedAmount
                ORDER BY id DESC LIMIT 1
                """, [crewID, userID])
        }
    }

    /// A member's payments, newest first, with the crew's name and slug.
    public func payments(userID: Int64, limit: Int = 100) throws -> [(payment: Payment, crewName: String, crewSlug: String)] {
        try database.read { db in
            try db.fetchAll("""
                SELECT \(Payment.selection.qualified), crews.name AS crewName, crews.slug AS crewSlug FROM payments JOIN crews ON crews.id = payments.crewID
                WHERE payments.userID = ? ORDER BY payments.id DESC LIMIT ?
                """, [userID, limit]) { row in
                (try Payment(row: row, startingAt: 0), try row.decode("crewName"), try row.decode("crewSlug"))
            }
        }
    }

    /// Every payment that holds or held money in a crew, for checking against the provider.
    public func payments(crewID: Int64) throws -> [Payment] {
        try database.read { db in try db.records(Payment.self, "SELECT \(Payment.selection.bare) FROM payments WHERE crewID = ? ORDER BY id DESC", [crewID]) }
    }

    /// Payments across the site for admins, newest first, optionally in one state.
    public func allPayments(state: Payment.State?, before: Int64?, limit: Int = 50)
        throws -> [(payment: Payment, crewName: String, crewSlug: String, username: String?)]
    {
        try database.read { db in
            try db.fetchAll("""
                SELECT \(Payment.selection.qualified), crews.name AS crewName, crews.slug AS crewSlug, users.username AS username FROM payments
                JOIN crews ON crews.id = payments.crewID LEFT JOIN users ON users.id = payments.userID
                WHERE (CAST(? AS text) IS NULL OR payments.state = ?) AND payments.id < ? ORDER BY payments.id DESC LIMIT ?
                """, [state?.rawValue, state?.rawValue, before ?? Int64.max, limit]) { row in
                (try Payment(row: row, startingAt: 0), try row.decode("crewName"), try row.decode("crewSlug"), try row.decode("username"))
            }
        }
    }

    /// What each provider's lines in a crew's ledger add up to, per payment: in minus out.
    public func ledgerNet(crewID: Int64) throws -> [Int64: Int] {
        try database.read { db in
            var net: [Int64: Int] = [:]
            for (payment, kind, amount) in try db.fetchAll(
                "SELECT paymentID, kind, amount FROM crewLedger WHERE crewID = ? AND paymentID IS NOT NULL", [crewID], {
                    (try $0.decode("paymentID", as: Int64.self), try $0.decode("kind", as: String.self), try $0.decode("amount", as: Int.self))
                })
            {
                let sign = LedgerEntry.Kind(rawValue: kind)?.isExpense == true ? -1 : 1
                net[payment, default: 0] += sign * amount
            }
            return net
        }
    }

    // MARK: - Dues periods

    /// Staff open a period of dues.
    public func openDuesPeriod(_ period: DuesPeriod) throws -> DuesPeriod {
        try database.write { db in
            guard let staff = period.createdBy else { throw StorageError.forbidden }
            try database.requireStaff(db, crewID: period.crewID, userID: staff)
            var period = period
            period.id = try db.insert(period)
            return period
        }
    }

    /// Staff close a period: nobody pays it online any more.
    public func closeDuesPeriod(id: Int64, crewID: Int64, by staffID: Int64, now: Date = Date()) throws {
        try database.write { db in
            try database.requireStaff(db, crewID: crewID, userID: staffID)
            guard try db.execute("UPDATE duesPeriods SET closedAt = ? WHERE id = ? AND crewID = ? AND closedAt IS NULL", [now, id, crewID]) == 1 else {
                throw StorageError.notFound
            }
        }
    }

    public func duesPeriod(id: Int64) throws -> DuesPeriod? {
        try database.read { db in try db.record(DuesPeriod.self, id: id) }
    }

    /// A crew's periods, the latest due first, with who has paid each online.
    public func duesPeriods(crewID: Int64, limit: Int = 24) throws -> [(period: DuesPeriod, paidBy: Set<Int64>)] {
        try database.read { db in
            let periods = try db.records(DuesPeriod.self, "SELECT \(DuesPeriod.selection.bare) FROM duesPeriods WHERE crewID = ? ORDER BY dueOn DESC, id DESC LIMIT ?", [crewID, limit])
            var paid: [Int64: Set<Int64>] = [:]
            for (period, user) in try db.fetchAll(
                "SELECT duesPeriodID, userID FROM payments WHERE crewID = ? AND purpose = 'dues' AND state = 'paid' AND userID IS NOT NULL", [crewID], {
                    (try $0.decode("duesPeriodID", as: Int64.self), try $0.decode("userID", as: Int64.self))
                })
            {
                paid[period, default: []].insert(user)
            }
            return periods.map { ($0, paid[$0.id ?? 0] ?? []) }
        }
    }
}

extension AppDatabase {
    /// Marks the member's join fee to be given back (a declined application, leaving within
    /// the crew's refund window), in the transaction that ends the membership; the caller then
    /// gives it back, and the sweep does if the provider cannot be reached.
    func voidJoinFee(_ db: SQLConnection, crewID: Int64, userID: Int64, why: String, paidAfter: Date? = nil) throws -> Payment? {
        guard var payment = try db.record(Payment.self, """
            SELECT \(Payment.selection.bare) FROM payments WHERE crewID = ? AND userID = ? AND purpose = 'join' AND state = 'paid' AND refundedAmount < receivedAmount
              AND settledAt >= ? ORDER BY id DESC LIMIT 1
            """, [crewID, userID, paidAfter ?? Date.distantPast]) else { return nil }
        payment.state = .voided
        payment.failure = why
        try db.update(payment)
        return payment
    }
}

extension PaymentStore {
    private func takePayment(_ db: SQLConnection, _ payment: inout Payment, reference: String?, today: String, now: Date) throws -> Settlement {
        let userID = payment.userID
        guard let userID, let crew = try db.record(Crew.self, id: payment.crewID) else {
            return try void(db, &payment, received: payment.amount, why: "the member or crew is gone", today: today, now: now)
        }
        let role = try database.crewRole(db, crewID: crew.storedID, userID: userID)
        switch payment.purpose {
        case .join:
            if role != nil { return try void(db, &payment, received: payment.amount, why: "already in the crew", today: today, now: now) }
            if crew.isFull { return try void(db, &payment, received: payment.amount, why: "the crew filled up meanwhile", today: today, now: now) }
        case .dues:
            let paid = try db.value("SELECT EXISTS (SELECT 1 FROM payments WHERE duesPeriodID = ? AND userID = ? AND state = 'paid')",
                                    [payment.duesPeriodID, userID]) ?? false
            if role?.isMember != true || paid {
                return try void(db, &payment, received: payment.amount, why: paid ? "these dues were paid already" : "no longer a member", today: today, now: now)
            }
        }
        payment.state = .paid
        payment.receivedAmount = payment.amount
        payment.settledAt = now
        if let reference, payment.providerReference == nil { payment.providerReference = reference }
        try line(db, payment, kind: payment.purpose == .join ? .fee : .dues, amount: payment.amount, note: payment.orderName, today: today, now: now)
        guard payment.purpose == .join else { return .duesPaid }
        if crew.joinPolicy == .approval {
            try db.execute("INSERT INTO crewMembers (crewID, userID, role, joinedAt) VALUES (?, ?, 'pending', ?)", [crew.id, userID, now])
            for staff in try db.values("SELECT userID FROM crewMembers WHERE crewID = ? AND role IN ('owner', 'staff')", [crew.id], as: Int64.self) {
                try database.insertNotification(db, userID: staff, kind: .crewRequest, actorID: userID, postID: nil, commentID: nil, crewID: crew.id, now: now)
            }
            db.changed(.crew(crewID: try crew.storedID))
            return .applied
        }
        try database.addMember(db, crewID: crew.storedID, userID: userID, now: now)
        return .joined
    }

    private func void(_ db: SQLConnection, _ payment: inout Payment, received: Int, why: String, today: String, now: Date) throws -> Settlement {
        payment.state = .voided
        payment.receivedAmount = max(received, payment.refundedAmount)
        payment.failure = String(why.prefix(300))
        payment.settledAt = payment.settledAt ?? now
        try line(db, payment, kind: .failure, amount: 0, note: payment.orderName + " — " + why, today: today, now: now)
        return payment.refundable > 0 ? .refundDue(amount: payment.refundable) : .closed
    }

    /// A ledger line for the payment; a second line of the same kind for it is not written.
    private func line(_ db: SQLConnection, _ payment: Payment, kind: LedgerEntry.Kind, amount: Int, note: String, reference: String? = nil,
                          by staffID: Int64? = nil, today: String, now: Date) throws {
        let entry = LedgerEntry(crewID: payment.crewID, kind: kind, memberID: payment.userID, amount: amount, occurredOn: today,
                                note: String(note.prefix(200)), provider: payment.provider, recordedBy: staffID, createdAt: now,
                                paymentID: payment.id, reference: reference ?? payment.publicID)
        let exists = try db.value("SELECT EXISTS (SELECT 1 FROM crewLedger WHERE provider = ? AND kind = ? AND reference = ?)",
                                  [entry.provider, kind.rawValue, entry.reference]) ?? false
        if !exists { _ = try db.insert(entry) }
    }
}
