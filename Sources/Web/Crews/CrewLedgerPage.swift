import Formats
import Foundation
import HTTP
import Storage

/// The crew's books, and the form staff record in.
struct CrewLedgerTab {
    let entries: [LedgerEntryView]
    var hasEntries: Bool { !entries.isEmpty }
    let income: String
    let expenses: String
    let balance: String
    let kinds: [Choice]
    let memberOptions: [Choice]
    let today: String
    let feeAmount: Int
    /// Each field's error message, by field name.
    let errors: [String: String]
    var hasErrors: Bool { !errors.isEmpty }
    /// Paying online: the periods of dues, and for staff the payments, refunds and checks.
    let online: OnlineLedgerView
}

struct LedgerEntryView {
    let date: String
    let kind: String
    /// The member it concerns.
    let who: String?
    let note: String?
    let amount: String
    let isExpense: Bool
    /// The provider and its id, for lines a payment wrote.
    let reference: String?
}

extension App {
    /// `GET /crews/:slug/ledger`: the crew's books, for its members; staff also record here.
    func crewLedgerShow(_ context: RequestContext) throws -> HTTPResponse {
        try renderLedger(context, errors: FieldErrors(), status: .ok)
    }

    /// `POST /crews/:slug/ledger`: staff record dues paid or waived, income or an expense.
    func crewLedgerRecord(_ context: RequestContext) throws -> HTTPResponse {
        let (crew, user) = try staffCrew(context)
        let form = context.form
        var errors = FieldErrors()
        let kind = form["kind"].flatMap(LedgerEntry.Kind.init(rawValue:)).flatMap { LedgerEntry.Kind.manual.contains($0) ? $0 : nil }
        if kind == nil { errors.add("kind", .errors.choice) }
        let amount = Checked.integer((form["amount"] ?? "").trimmed, in: 0...100_000_000_000)
        if amount == nil { errors.add("amount", .errors.ledger_amount) }
        let day = (form["date"] ?? "").trimmed
        if !Self.isDate(day) { errors.add("date", .errors.ledger_date) }
        let note = (form["note"] ?? "").trimmed
        if !note.fits(0, 200) { errors.add("note", .errors.ledger_note) }
        var memberID: Int64? = nil
        if kind == .dues || kind == .waiver {
            memberID = try (form["member"]).flatMap { try database.accounts.user(username: $0)?.id }
            if memberID == nil { errors.add("member", .errors.ledger_member) }
        }
        guard errors.isEmpty, let kind, let amount else { return try renderLedger(context, errors: errors, status: .unprocessableContent) }
        let entry = LedgerEntry(id: nil, crewID: try crew.storedID, kind: kind, memberID: memberID, amount: kind == .waiver ? 0 : amount,
                                occurredOn: day, note: note, provider: "", recordedBy: try user.storedID, createdAt: Date())
        _ = try storageAction(context, Self.crewRefusals) { try duesCollector.record(entry, in: database) }
        return redirect(to: Paths.crew(crew.slug) + "/ledger", flash: \.ledger_recorded)
    }

    func renderLedger(_ context: RequestContext, errors: FieldErrors, status: HTTPStatus) throws -> HTTPResponse {
        let crew = try crew(context)
        let role = try viewerRole(crew, context)
        guard role?.isMember == true else { throw refusal(.forbidden, context.language, Self.crewRefusals) }
        let language = context.language
        let ledger = try database.crews.ledger(crewID: crew.storedID)
        let members = try database.crews.crewMembers(crewID: crew.storedID)
        // Each line names who paid or was paid, also after they left the crew.
        let people = try database.accounts.users(ids: Set(ledger.entries.compactMap(\.memberID)))
        let money = { (amount: Int) in self.money(amount, crew.feeCurrency, language) }
        var view = try crewPage(crew, tab: .ledger, role: role, context)
        view.ledgerTab = CrewLedgerTab(
            entries: ledger.entries.map { entry in
                LedgerEntryView(
                    date: entry.occurredOn,
                    kind: localizer.text(entry.kind.textKey, language),
                    who: entry.memberID.flatMap { people[$0]?.displayName },
                    note: entry.note.nilIfEmpty,
                    amount: money(entry.amount),
                    isExpense: entry.kind.isExpense,
                    reference: entry.paymentID == nil ? nil : "\(entry.provider) · \(entry.reference ?? "")")
            },
            income: money(ledger.income),
            expenses: money(ledger.expenses),
            balance: money(ledger.balance),
            kinds: choices(LedgerEntry.Kind.manual.map(\.rawValue), labels: TextKey.crews.ledger.kind.named, selected: context.form["kind"], language),
            memberOptions: members.map {
                Choice(value: $0.user.username, label: $0.user.displayName, selected: $0.user.username == context.form["member"])
            },
            today: String(InternetDate.format(Date()).prefix(10)),
            feeAmount: crew.feeAmount,
            errors: errors.localized(localizer, language),
            online: try onlineLedger(crew, role: role, members: members, context))
        return renderCrew(view, crew, context, status: status)
    }

    /// The first day of the crew's current dues period.
    func duesPeriodStart(_ crew: Crew, now: Date = Date()) -> String {
        let today = InternetDate.format(now)
        switch crew.feePeriod {
        case .month: return String(today.prefix(7)) + "-01"
        case .year: return String(today.prefix(4)) + "-01-01"
        case .once: return "0000-01-01"
        }
    }

    static func isDate(_ text: String) -> Bool {
        let parts = text.split(separator: "-")
        guard text.count == 10, parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else { return false }
        return (2000...2100).contains(year) && (1...12).contains(month) && (1...31).contains(day)
    }
}
