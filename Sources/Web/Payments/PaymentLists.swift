import Formats
import Foundation
import HTTP
import Storage

/// Payments listed: a member's own in settings, or every crew's for site staff.
struct PaymentListView: PageView {
    static let template = "payments"
    let title: String
    let isAdmin: Bool
    let rows: [PaymentRowView]
    var hasRows: Bool { !rows.isEmpty }
    let states: [Choice]
    let olderURL: String?
    let testMode: Bool
}

struct PaymentRowView {
    let url: String
    let date: String
    let crewName: String
    let crewURL: String
    let what: String
    let who: String?
    let amount: String
    let state: String
    let isProblem: Bool
    let provider: String
    let reference: String
    let refunded: String?
    let refundReason: String?
}

extension App {
    /// `GET /settings/payments`: what the member paid, and what came back.
    func settingsPayments(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let rows = try database.payments.payments(userID: user.storedID).map { row(payment: $0.payment, crewName: $0.crewName, crewSlug: $0.crewSlug, who: nil, context.language) }
        let view = PaymentListView(title: localizer.text(.payments.mine, context.language), isAdmin: false, rows: rows, states: [],
                                   olderURL: nil, testMode: paymentProviders.isTestMode)
        return page(view, context, title: view.title)
    }

    /// `GET /admin/payments?state=…`: every crew's payments, newest first, with the providers' ids.
    func adminPayments(_ context: RequestContext, _ staff: User) throws -> HTTPResponse {
        let language = context.language
        let state = context.form["state"].flatMap(Payment.State.init(rawValue:))
        let before = context.form["before"].flatMap { Checked.integer($0, in: 1...Int.max) }.map(Int64.init)
        let found = try database.payments.allPayments(state: state, before: before, limit: 50)
        let rows = found.map { row(payment: $0.payment, crewName: $0.crewName, crewSlug: $0.crewSlug, who: $0.username.map { "@" + $0 }, language) }
        let older = found.count == 50 ? found.last?.payment.id.map { "/admin/payments?before=\($0)" + (state.map { "&state=" + $0.rawValue } ?? "") } : nil
        let view = PaymentListView(
            title: localizer.text(.payments.admin_title, language), isAdmin: true, rows: rows,
            states: choices(Payment.State.allCases.map(\.rawValue), labels: TextKey.payments.states.named, selected: state?.rawValue, language),
            olderURL: older, testMode: paymentProviders.isTestMode)
        return page(view, context, title: view.title)
    }

    private func row(payment: Payment, crewName: String, crewSlug: String, who: String?, _ language: Language) -> PaymentRowView {
        PaymentRowView(
            url: Paths.payment(payment.publicID), date: localizer.dateTime(payment.createdAt, language), crewName: crewName, crewURL: Paths.crew(crewSlug),
            what: payment.orderName, who: who, amount: money(payment.amount, payment.currency, language),
            state: localizer.text(payment.state.textKey, language), isProblem: [.failed, .voided].contains(payment.state),
            provider: paymentProviders.provider(payment.provider)?.name ?? payment.provider,
            reference: payment.providerReference ?? payment.publicID,
            refunded: payment.refundedAmount > 0 ? money(payment.refundedAmount, payment.currency, language) : nil,
            refundReason: payment.refundReason.nilIfEmpty)
    }
}
