/// Paying online: a payment for each attempt to pay a crew's join fee or a period's dues
/// through a provider (its id at the provider, the amount fixed before the window opened, what
/// the provider said came in and what went back), the dues periods staff open, and ledger
/// lines that point at the payment they record (a payment, a refund, a failure), each with the
/// provider's own id, unique so that a webhook delivered twice writes one line. A crew sets how
/// many days after joining a member who leaves gets the join fee back.
///
/// A CHECK changes, so the ledger is rebuilt with the new kinds (`SchemaDialect.rebuild`); the
/// columns keep their order on both engines.
enum PaymentsSchema {
    static func sql(_ t: SchemaDialect) -> String {
        let tables = """
            CREATE TABLE duesPeriods (
                id \(t.id),
                crewID \(t.integer) NOT NULL REFERENCES crews(id) ON DELETE CASCADE,
                name \(t.text) NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
                amount \(t.integer) NOT NULL CHECK (amount BETWEEN 1 AND 100000000),
                dueOn \(t.text) NOT NULL CHECK (\(t.isDay("dueOn"))),
                createdBy \(t.integer) REFERENCES users(id) ON DELETE SET NULL,
                createdAt \(t.date) NOT NULL,
                closedAt \(t.date)
            );
            CREATE INDEX duesPeriods_crew ON duesPeriods(crewID, dueOn);

            CREATE TABLE payments (
                id \(t.id),
                publicID \(t.text) NOT NULL UNIQUE CHECK (length(publicID) BETWEEN 8 AND 64),
                crewID \(t.integer) NOT NULL REFERENCES crews(id) ON DELETE CASCADE,
                userID \(t.integer) REFERENCES users(id) ON DELETE SET NULL,
                purpose \(t.text) NOT NULL CHECK (purpose IN ('join', 'dues')),
                duesPeriodID \(t.integer) REFERENCES duesPeriods(id) ON DELETE SET NULL,
                provider \(t.text) NOT NULL CHECK (length(provider) BETWEEN 1 AND 20),
                providerReference \(t.text) CHECK (length(providerReference) <= 255),
                amount \(t.integer) NOT NULL CHECK (amount BETWEEN 1 AND 100000000),
                currency \(t.text) NOT NULL CHECK (currency IN ('KRW', 'USD', 'EUR', 'JPY')),
                orderName \(t.text) NOT NULL CHECK (length(orderName) BETWEEN 1 AND 200),
                state \(t.text) NOT NULL CHECK (state IN ('pending', 'paid', 'failed', 'cancelled', 'expired', 'voided', 'refunded')),
                receivedAmount \(t.integer) NOT NULL DEFAULT 0 CHECK (receivedAmount >= 0),
                refundedAmount \(t.integer) NOT NULL DEFAULT 0 CHECK (refundedAmount >= 0 AND refundedAmount <= receivedAmount),
                checkoutURL \(t.text) CHECK (length(checkoutURL) <= 2048),
                failure \(t.text) NOT NULL DEFAULT '' CHECK (length(failure) <= 300),
                refundReason \(t.text) NOT NULL DEFAULT '' CHECK (length(refundReason) <= 200),
                createdAt \(t.date) NOT NULL,
                expiresAt \(t.date) NOT NULL,
                settledAt \(t.date),
                checkedAt \(t.date),
                CHECK (purpose = 'join' OR duesPeriodID IS NOT NULL OR state != 'pending'),
                CHECK (state IN ('pending', 'failed', 'cancelled', 'expired') OR receivedAmount > 0)
            );
            -- One attempt under way per member and thing to pay: two tabs and a double click share it.
            CREATE UNIQUE INDEX payments_pending ON payments(crewID, userID, purpose, COALESCE(duesPeriodID, 0)) WHERE state = 'pending';
            -- Dues of a period are paid once.
            CREATE UNIQUE INDEX payments_duesPaid ON payments(duesPeriodID, userID) WHERE state = 'paid' AND purpose = 'dues';
            CREATE UNIQUE INDEX payments_reference ON payments(provider, providerReference) WHERE providerReference IS NOT NULL;
            CREATE INDEX payments_crew ON payments(crewID, id);
            CREATE INDEX payments_user ON payments(userID, id);
            CREATE INDEX payments_open ON payments(createdAt) WHERE state = 'pending';
            CREATE INDEX payments_state ON payments(state, id);

            ALTER TABLE crews ADD COLUMN refundDays \(t.shortInteger) NOT NULL DEFAULT 0 CHECK (refundDays BETWEEN 0 AND 365);
            """
        return tables + ledger(t)
    }

    private static let kinds = "kind IN ('dues', 'waiver', 'income', 'expense', 'fee', 'refund', 'failure')"
    /// Income and expenses are the crew's own; everything else concerns a member (until the
    /// member's account is deleted, when the line stays and the name goes).
    private static let memberRule = "kind NOT IN ('income', 'expense') OR memberID IS NULL"
    private static let uniqueReference = """
        CREATE UNIQUE INDEX crewLedger_reference ON crewLedger(provider, kind, reference) WHERE reference IS NOT NULL;
        CREATE INDEX crewLedger_payment ON crewLedger(paymentID) WHERE paymentID IS NOT NULL;
        """

    /// The ledger made anew: new kinds, lines of no member's (income, expenses, a deleted
    /// member's), no recorder needed (a provider's line), and what each line records.
    private static func ledger(_ t: SchemaDialect) -> String {
        let create = """
            CREATE TABLE crewLedger (
                id \(t.id),
                crewID \(t.integer) NOT NULL REFERENCES crews(id) ON DELETE CASCADE,
                kind \(t.text) NOT NULL CHECK (\(kinds)),
                memberID \(t.integer) REFERENCES users(id) ON DELETE SET NULL,
                amount \(t.integer) NOT NULL CHECK (amount BETWEEN 0 AND 100000000000),
                occurredOn \(t.text) NOT NULL CHECK (\(t.isDay("occurredOn"))),
                note \(t.text) NOT NULL DEFAULT '' CHECK (length(note) <= 200),
                provider \(t.text) NOT NULL DEFAULT 'manual',
                recordedBy \(t.integer) REFERENCES users(id) ON DELETE SET NULL,
                createdAt \(t.date) NOT NULL,
                paymentID \(t.integer) REFERENCES payments(id) ON DELETE SET NULL,
                reference \(t.text) CHECK (length(reference) <= 255),
                CHECK (\(memberRule))
            );
            """
        return t.rebuild("crewLedger", create: create,
                         copied: ["id", "crewID", "kind", "memberID", "amount", "occurredOn", "note", "provider", "recordedBy", "createdAt"],
                         indexes: ["CREATE INDEX crewLedger_crew ON crewLedger(crewID, occurredOn);"]) + "\n" + uniqueReference
    }
}
