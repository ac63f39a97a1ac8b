import Formats
import Foundation
import HTTP
import Network
import Storage

/// The ledger's part that money paid online writes: periods of dues to pay, and for staff
/// each payment with its refund form, the check against the provider and the CSV export.
struct OnlineLedgerView {
    /// A provider takes the crew's currency: members can pay here.
    let isOnline: Bool
    let testMode: Bool
    let isStaff: Bool
    let periods: [DuesPeriodView]
    var hasPeriods: Bool { !periods.isEmpty }
    let payments: [LedgerPaymentView]
    var hasPayments: Bool { !payments.isEmpty }
    let duesURL: String
    let checkURL: String
    let csvURL: String
    /// After "check against provider": one row per payment that holds or held money.
    let check: [LedgerCheckRow]?
    var checked: Bool { check != nil }
    let checkBalances: Bool
    let defaultDue: String
}

struct DuesPeriodView {
    let name: String
    let amount: String
    let due: String
    let paidCount: String
    let paidNames: String
    let viewerPaid: Bool
    let payURL: String?
    let closeURL: String?
    let isClosed: Bool
}

struct LedgerPaymentView {
    let publicID: String
    let url: String
    let who: String
    let what: String
    let amount: String
    let state: String
    let provider: String
    let refunded: String?
    let refundURL: String?
    let refundable: Int
}

struct LedgerCheckRow {
    let publicID: String
    let ours: String
    let theirs: String
    let matches: Bool
}

extension App {
    func onlineLedger(_ crew: Crew, role: CrewRole?, members: [CrewMember], _ context: RequestContext) throws -> OnlineLedgerView {
        let language = context.language
        let providers = paymentProviders.providers(for: crew.feeCurrency)
        let isStaff = role?.isStaff == true
        var names = Dictionary(members.map { ($0.user.id ?? 0, $0.user.displayName) }, uniquingKeysWith: { first, _ in first })
        let base = Paths.crewLedger(crew.slug)
        let periods = try database.payments.duesPeriods(crewID: crew.storedID).map { period, paidBy in
            let viewerPaid = context.user?.id.map(paidBy.contains) ?? false
            return DuesPeriodView(
                name: period.name, amount: money(period.amount, crew.feeCurrency, language), due: period.dueOn,
                paidCount: localizer.text(.payments.dues.paid_count, language, ["paid": localizer.number(paidBy.count, language), "members": localizer.number(members.count, language)]),
                paidNames: paidBy.compactMap { names[$0] }.sorted().joined(separator: ", "), viewerPaid: viewerPaid,
                payURL: !providers.isEmpty && !viewerPaid && period.closedAt == nil ? Paths.crewPay(crew.slug) + "?for=dues&period=\(period.id ?? 0)" : nil,
                closeURL: isStaff && period.closedAt == nil ? Paths.crew(crew.slug) + "/dues/\(period.id ?? 0)/close" : nil,
                isClosed: period.closedAt != nil)
        }
        var payments: [LedgerPaymentView] = []
        var check: [LedgerCheckRow]?
        if isStaff {
            let all = try database.payments.payments(crewID: crew.storedID)
            // Attempts that never took money (closed windows) would only crowd the list.
            let shown = all.filter { $0.state != .cancelled && $0.state != .expired }.prefix(100)
            for id in Set(shown.compactMap(\.userID)) where names[id] == nil {
                names[id] = try database.accounts.user(id: id)?.displayName
            }
            payments = shown.map { payment in
                LedgerPaymentView(
                    publicID: payment.publicID, url: Paths.payment(payment.publicID), who: payment.userID.flatMap { names[$0] } ?? "—",
                    what: payment.orderName, amount: money(payment.amount, payment.currency, language),
                    state: localizer.text(payment.state.textKey, language),
                    provider: paymentProviders.provider(payment.provider)?.name ?? payment.provider,
                    refunded: payment.refundedAmount > 0 ? money(payment.refundedAmount, payment.currency, language) : nil,
                    refundURL: payment.state == .paid && payment.refundable > 0 ? Paths.crew(crew.slug) + "/payments/\(payment.publicID)/refund" : nil,
                    refundable: payment.refundable)
            }
            if context.request.path.hasSuffix("/check") { check = try checkAgainstProviders(all, crew: crew, language) }
        }
        return OnlineLedgerView(
            isOnline: !providers.isEmpty, testMode: providers.contains { $0.isTestMode }, isStaff: isStaff, periods: periods, payments: payments,
            duesURL: Paths.crew(crew.slug) + "/dues", checkURL: base + "/check", csvURL: base + ".csv", check: check,
            checkBalances: check?.allSatisfy(\.matches) ?? false, defaultDue: today())
    }

    /// Each payment's net as the ledger has it against what its provider says now.
    private func checkAgainstProviders(_ payments: [Payment], crew: Crew, _ language: Language) throws -> [LedgerCheckRow] {
        let ledger = try database.payments.ledgerNet(crewID: crew.storedID)
        return payments.filter { $0.state.holdsMoney }.map { payment in
            let ours = ledger[payment.id ?? 0] ?? 0
            let theirs: Int?
            do {
                let answer = try paymentProviders.provider(payment.provider)?.lookup(payment)
                theirs = answer.map { Money.whole(max(0, $0.amount - $0.refunded), $0.currency) }
            } catch {
                log("ledger check: \(payment.publicID) could not be asked: \(error)")
                theirs = nil
            }
            return LedgerCheckRow(publicID: payment.publicID, ours: money(ours, payment.currency, language),
                                  theirs: theirs.map { money($0, payment.currency, language) } ?? localizer.text(.payments.check.unreachable, language),
                                  matches: theirs == ours)
        }
    }

    /// `GET /crews/:slug/ledger/check`: the ledger page with the check against the providers.
    func crewLedgerCheck(_ context: RequestContext) throws -> HTTPResponse {
        _ = try staffCrew(context)
        return try renderLedger(context, errors: FieldErrors(), status: .ok)
    }

    /// `POST /crews/:slug/payments/:id/refund`: staff give back part or all of a payment, with a reason the member sees.
    func paymentRefund(_ context: RequestContext) throws -> HTTPResponse {
        let (crew, user) = try staffCrew(context)
        let language = context.language
        guard let publicID = context.request.parameters["id"], let payment = try database.payments.payment(publicID: publicID), payment.crewID == crew.id else {
            throw HTTPError(.notFound)
        }
        let reason = (context.form["reason"] ?? "").trimmed
        let amountText = (context.form["amount"] ?? "").trimmed
        let amount = amountText.isEmpty ? payment.refundable : Checked.integer(amountText, in: 1...100_000_000)
        guard payment.state == .paid, let amount, amount <= payment.refundable, reason.fits(1, 200) else {
            throw HTTPError(.unprocessableContent, message: localizer.text(.payments.errors.refund, language,
                                                                          ["amount": money(payment.refundable, payment.currency, language)]))
        }
        do {
            try giveBack(payment, amount: amount, reason: reason, by: try user.storedID)
        } catch let error as PaymentAPIError {
            log("payment \(payment.publicID): refund by staff failed: \(error)")
            if case .unavailable = error {
                throw HTTPError(.serviceUnavailable, message: localizer.text(.payments.errors.unavailable, language), headers: ["Retry-After": "60"])
            }
            throw HTTPError(.conflict, message: localizer.text(.payments.errors.refund_refused, language))
        }
        return redirect(to: Paths.crewLedger(crew.slug), flash: \.payment_refunded)
    }

    /// `POST /crews/:slug/dues`: staff open a period of dues.
    func duesPeriodCreate(_ context: RequestContext) throws -> HTTPResponse {
        let (crew, user) = try staffCrew(context)
        let form = context.form
        let name = (form["name"] ?? "").trimmed
        let amount = Checked.integer((form["amount"] ?? "").trimmed, in: 1...100_000_000)
        let due = (form["due"] ?? "").trimmed
        guard name.fits(1, 60), let amount, Self.isDate(due) else {
            throw HTTPError(.unprocessableContent, message: localizer.text(.payments.errors.period, context.language))
        }
        _ = try storageAction(context, Self.crewRefusals) {
            try database.payments.openDuesPeriod(DuesPeriod(crewID: try crew.storedID, name: name, amount: amount, dueOn: due, createdBy: try user.storedID, createdAt: Date()))
        }
        return redirect(to: Paths.crewLedger(crew.slug), flash: \.dues_opened)
    }

    /// `POST /crews/:slug/dues/:id/close`.
    func duesPeriodClose(_ context: RequestContext) throws -> HTTPResponse {
        let (crew, user) = try staffCrew(context)
        guard let id = Checked.integer(context.request.parameters["id"] ?? "", in: 1...Int.max) else { throw HTTPError(.notFound) }
        try storageAction(context, Self.crewRefusals) { try database.payments.closeDuesPeriod(id: Int64(id), crewID: try crew.storedID, by: try user.storedID) }
        return redirect(to: Paths.crewLedger(crew.slug), flash: \.dues_closed)
    }

    /// `GET /crews/:slug/ledger.csv`: the books for the treasurer's spreadsheet.
    func crewLedgerCSV(_ context: RequestContext) throws -> HTTPResponse {
        let (crew, _) = try staffCrew(context)
        let ledger = try database.crews.ledger(crewID: crew.storedID)
        let people = try database.accounts.users(ids: Set(ledger.entries.compactMap(\.memberID)))
        var lines = ["date,kind,member,amount,currency,provider,reference,note"]
        for entry in ledger.entries {
            let signed = entry.kind.isExpense ? -entry.amount : entry.amount
            lines.append([entry.occurredOn, entry.kind.rawValue, entry.memberID.flatMap { people[$0]?.username } ?? "", String(signed), crew.feeCurrency,
                          entry.provider, entry.reference ?? "", entry.note].map(Self.csvField).joined(separator: ","))
        }
        var response = HTTPResponse(status: .ok, contentType: "text/csv; charset=utf-8", body: lines.joined(separator: "\r\n") + "\r\n")
        response.headers.set("Content-Disposition", "attachment; filename=\"\(crew.slug)-ledger.csv\"")
        return response
    }

    /// A CSV field (RFC 4180), defused for spreadsheets: text starting =, +, -, @ gets a quote mark first.
    static func csvField(_ text: String) -> String {
        var text = text
        if let first = text.first, "=+-@\t\r".contains(first), Int(text) == nil { text = "'" + text }
        guard text.contains(where: { ",\"\r\n".contains($0) }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
