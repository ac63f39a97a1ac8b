import Foundation
import HTTP
import Synchronization
import Storage
import Mail
import Testing
import TestSupport
@testable import Web

/// Paying a crew's fee and dues through PortOne and Stripe, stood in for by a double on
/// loopback that the providers' own SDKs check: a member joins exactly when the provider says
/// the exact amount was paid, and every return or webhook that says otherwise changes nothing.
@Suite(.serialized) struct PaymentTests {
    let double: PaymentDouble
    let site: TestSite

    init() throws {
        double = try PaymentDouble()
        var configuration = TestSite.configuration()
        configuration.baseURL = PublicURL("http://moim.test")
        configuration.payments = double.configuration
        site = try TestSite(configuration: configuration)
    }

    private func createCrew(_ browser: Browser, name: String, policy: String = "open", fee: Int, currency: String = "KRW", refundDays: Int = 0) -> String {
        browser.postMultipart("/crews", [
            ("name", name), ("slug", ""), ("sport", "running"), ("region", "seoul"), ("description", "Runs."), ("meeting_time", ""),
            ("meeting_place", ""), ("fee_amount", String(fee)), ("fee_currency", currency), ("fee_period", "once"), ("join_policy", policy),
            ("member_cap", ""), ("refund_days", String(refundDays)),
        ], files: [], from: "/crews/new").headers["Location"] ?? ""
    }

    /// Starts paying with `provider`; the attempt's id and where the browser was sent.
    private func startPaying(_ browser: Browser, _ crew: String, provider: String, amount: Int, extra: [(String, String)] = []) throws -> (String, String) {
        let started = browser.post(crew + "/pay", [("for", "join"), ("amount", String(amount)), ("provider", provider)] + extra, from: crew + "/pay")
        #expect(started.status == .seeOther)
        let location = try #require(started.headers["Location"])
        let payment = try #require(try site.database.payments.payments(userID: try userID("mina")).first?.payment)
        return (payment.publicID, location)
    }

    private func userID(_ username: String) throws -> Int64 {
        try #require(try site.database.accounts.user(username: username)).storedID
    }

    private func crewID(_ path: String) throws -> Int64 {
        try #require(try site.database.crews.crew(slug: String(path.dropFirst("/crews/".count)))).storedID
    }

    private func payment(_ publicID: String) throws -> Payment {
        try #require(try site.database.payments.payment(publicID: publicID))
    }

    private func role(_ crew: String, _ username: String) throws -> CrewRole? {
        try site.database.crews.crewRole(crewID: try crewID(crew), userID: try userID(username))
    }

    @Test func aMemberJoinsAnOpenCrewByPayingThroughPortOneAndNothingTwiceMakesTwoOfAnything() throws {
        let (owner, mina) = { let b = site.members("owner", "mina"); return (b[0], b[1]) }()
        let crew = createCrew(owner, name: "Hangang Dawn", fee: 10_000)
        let page = mina.get(crew).bodyText
        #expect(page.contains("Join and pay ₩10,000") && page.contains(crew + "/pay"))
        // The free join form is no way around the fee.
        #expect(mina.post(crew + "/join", [], from: crew).headers["Location"] == crew + "/pay")
        #expect(try role(crew, "mina") == nil)

        let payPage = mina.get(crew + "/pay")
        #expect(payPage.bodyText.contains("₩10,000") && payPage.bodyText.contains("Hangang Dawn") && payPage.bodyText.contains("Test mode"))
        let (id, location) = try startPaying(mina, crew, provider: "portone", amount: 10_000)
        #expect(location == "/payments/\(id)/pay")
        // A double click opens the same attempt.
        #expect(mina.post(crew + "/pay", [("for", "join"), ("amount", "10000"), ("provider", "portone")], from: crew + "/pay").headers["Location"] == location)

        let window = mina.get(location)
        let policy = try #require(window.headers["Content-Security-Policy"])
        #expect(policy.contains("script-src 'self' \(double.url)"), "PortOne's SDK allowed on this page")
        #expect(!(mina.get(crew).headers["Content-Security-Policy"] ?? "").contains(double.url), "and on no other")
        #expect(window.bodyText.contains(#"data-payment-id="\#(id)""#) && window.bodyText.contains(#"data-amount="10000""#))

        let back = try double.portOneWindow(paymentID: id, amount: 10_000, returnURL: "http://moim.test/payments/\(id)/return")
        #expect(back.hasPrefix("http://moim.test/payments/\(id)/return?paymentId=\(id)"))
        let returned = mina.get(String(back.dropFirst("http://moim.test".count)))
        #expect(returned.headers["Location"] == "/payments/\(id)")
        #expect(mina.get("/payments/\(id)").bodyText.contains("You paid ₩10,000 to Hangang Dawn"))
        #expect(try role(crew, "mina") == .member)

        // The same return again, then PortOne's webhook: nothing more happens.
        mina.get(String(back.dropFirst("http://moim.test".count)))
        let body = #"{"type":"Transaction.Paid","timestamp":"2026-11-26T00:00:00Z","data":{"paymentId":"\#(id)","storeId":"\#(PaymentDouble.storeID)","transactionId":"tx"}}"#
        let hook = mina.webhook("/payments/webhooks/portone", body: body, headers: try double.sign("portone", body))
        #expect(hook.status == .ok && hook.bodyText == "ok\n")
        let ledger = try site.database.crews.ledger(crewID: try crewID(crew))
        #expect(ledger.entries.filter { $0.kind == .fee }.count == 1 && ledger.income == 10_000)
        #expect(try site.database.crews.crew(id: try crewID(crew))?.memberCount == 2)
        #expect(owner.get(crew + "/ledger").bodyText.contains("Join fee"))

        // What Moim told PortOne, and that PortOne's SDK read every answer the double gave.
        let (requests, refusals) = try double.requests()
        #expect(refusals.isEmpty, "\(refusals)")
        let preRegister = try #require(requests.first { ($0["path"] as? String)?.hasSuffix("/pre-register") == true })
        #expect(preRegister["authorization"] as? String == "PortOne portone-test-secret")
        #expect((preRegister["body"] as? String)?.contains(#""totalAmount":10000"#) == true)
    }

    @Test func forgedReturnsTamperedWindowsAndAnAmountThatDiffersTakeNobodyIn() throws {
        let (owner, mina) = { let b = site.members("owner", "mina"); return (b[0], b[1]) }()
        let crew = createCrew(owner, name: "Night Owls", fee: 10_000)
        let (id, _) = try startPaying(mina, crew, provider: "portone", amount: 10_000)

        // Unknown and foreign payment ids in the return address.
        #expect(mina.get("/payments/moim_nosuchpayment000000/return?paymentId=moim_nosuchpayment000000").status == .notFound)
        #expect(mina.get("/payments/\(id)/return?paymentId=moim_someoneelses00000").status == .badRequest)
        // A window whose amount was changed in the browser: PortOne refuses it, and the attempt ends.
        let refused = try double.portOneWindow(paymentID: id, amount: 100, returnURL: "http://moim.test/payments/\(id)/return")
        #expect(refused.contains("code="))
        mina.get(String(refused.dropFirst("http://moim.test".count)))
        #expect(mina.get("/payments/\(id)").bodyText.contains("cancelled"))
        #expect(try role(crew, "mina") == nil)

        // Another attempt, for which the provider reports a different amount paid: returned in full, no membership.
        let (second, _) = try startPaying(mina, crew, provider: "portone", amount: 10_000)
        #expect(second != id)
        try double.control("portone/\(second)", #"{"status":"PAID","amount":10000,"paid":9000,"paidAt":"2026-11-26T00:00:00Z"}"#)
        mina.get("/payments/\(second)/return?paymentId=\(second)")
        #expect(try role(crew, "mina") == nil)
        let payment = try payment(second)
        #expect(payment.state == .voided && payment.refundedAmount == 9_000 && payment.failure.contains("9000"))
        #expect(try double.get("/payments/\(second)", authorization: "PortOne portone-test-secret")["status"] as? String == "CANCELLED")
        #expect(mina.get("/payments/\(second)").bodyText.contains("Your money is being returned"))
        let ledger = try site.database.crews.ledger(crewID: payment.crewID)
        #expect(ledger.balance == 0 && ledger.entries.contains { $0.kind == .failure })
        // A payment PortOne files under another store is nobody's payment here.
        let (third, _) = try startPaying(mina, crew, provider: "portone", amount: 10_000)
        try double.control("portone/\(third)", #"{"status":"PAID","paid":10000,"storeId":"store-someone-else"}"#)
        mina.get("/payments/\(third)/return?paymentId=\(third)")
        #expect(try self.payment(third).state == .failed && (try role(crew, "mina")) == nil)
        // Someone else cannot even see it.
        #expect(owner.get("/payments/\(second)").status == .ok, "crew staff see it")
        #expect(site.members("jun")[0].get("/payments/\(second)").status == .notFound)
        #expect(try double.requests().refusals.isEmpty)
    }

    @Test func webhooksWithBadSignaturesOldTimesOrUnknownPaymentsChangeNothing() throws {
        let (owner, mina) = { let b = site.members("owner", "mina"); return (b[0], b[1]) }()
        let crew = createCrew(owner, name: "Trail Cats", fee: 5_000)
        let (id, _) = try startPaying(mina, crew, provider: "portone", amount: 5_000)
        try double.control("portone/\(id)", #"{"status":"PAID","paid":5000}"#)
        let body = #"{"type":"Transaction.Paid","timestamp":"2026-11-26T00:00:00Z","data":{"paymentId":"\#(id)","storeId":"\#(PaymentDouble.storeID)","transactionId":"tx"}}"#
        var headers = try double.sign("portone", body)

        #expect(mina.webhook("/payments/webhooks/portone", body: body, headers: []).status == .badRequest)
        let forged = headers.map { $0.0 == "webhook-signature" ? ($0.0, "v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=") : $0 }
        #expect(mina.webhook("/payments/webhooks/portone", body: body, headers: forged).status == .badRequest)
        #expect(mina.webhook("/payments/webhooks/portone", body: body.replacingOccurrences(of: "Transaction.Paid", with: "Transaction.Failed"), headers: headers).status == .badRequest)
        let old = try double.sign("portone", body, timestamp: Int(Date().timeIntervalSince1970) - 600)
        #expect(mina.webhook("/payments/webhooks/portone", body: body, headers: old).status == .badRequest)
        #expect(mina.webhook("/payments/webhooks/stripe", body: body, headers: [("Stripe-Signature", "t=1,v1=00")]).status == .badRequest)
        #expect(mina.webhook("/payments/webhooks/nobody", body: body, headers: headers).status == .notFound)
        #expect(try role(crew, "mina") == nil, "nothing believed so far")

        let unknown = #"{"type":"Transaction.Paid","timestamp":"2026-11-26T00:00:00Z","data":{"paymentId":"moim_unknown","storeId":"\#(PaymentDouble.storeID)","transactionId":"tx"}}"#
        #expect(mina.webhook("/payments/webhooks/portone", body: unknown, headers: try double.sign("portone", unknown)).bodyText.contains("ignored"))
        let billing = #"{"type":"BillingKey.Issued","timestamp":"2026-11-26T00:00:00Z","data":{"billingKey":"b","storeId":"s"}}"#
        #expect(mina.webhook("/payments/webhooks/portone", body: billing, headers: try double.sign("portone", billing)).bodyText.contains("ignored"))

        // The genuine one: Moim asks PortOne, which says paid, and Mina is in, once.
        headers = try double.sign("portone", body)
        #expect(mina.webhook("/payments/webhooks/portone", body: body, headers: headers).status == .ok)
        #expect(mina.webhook("/payments/webhooks/portone", body: body, headers: headers).status == .ok)
        #expect(try role(crew, "mina") == .member)
        #expect(try site.database.crews.ledger(crewID: try crewID(crew)).income == 5_000)
    }

    @Test func stripeCheckoutNeedsNoScriptAndStaffRefundPartOfItAgainstWhatStripeSays() throws {
        let (owner, mina) = { let b = site.members("owner", "mina"); return (b[0], b[1]) }()
        let crew = createCrew(owner, name: "Brooklyn Striders", fee: 20, currency: "USD")
        let payPage = mina.get(crew + "/pay")
        #expect(payPage.bodyText.contains("$20") && !payPage.bodyText.contains("KakaoPay"), "PortOne takes won only")
        #expect(payPage.headers["Content-Security-Policy"]?.contains("form-action 'self' \(double.url)") == true)
        let (id, checkout) = try startPaying(mina, crew, provider: "stripe", amount: 20)
        #expect(checkout.hasPrefix(double.url + "/checkout/cs_test_"))
        let sessionID = String(checkout.split(separator: "/").last ?? "")
        let created = try #require(try double.requests().requests.first { $0["path"] as? String == "/v1/checkout/sessions" })
        #expect((created["body"] as? String)?.contains("unit_amount%5D=2000") == true, "cents, fixed by Moim")
        #expect(created["idempotency"] as? String == "moim-checkout-\(id)")

        let back = try double.submit("/checkout/\(sessionID)/pay")
        #expect(back == "http://moim.test/payments/\(id)/return?session_id=\(sessionID)")
        // A return naming another session is not this payment's.
        #expect(mina.get("/payments/\(id)/return?session_id=cs_test_forged").status == .badRequest)
        mina.get(String(back.dropFirst("http://moim.test".count)))
        #expect(try role(crew, "mina") == .member)
        let event = try double.control("event", #"{"type":"checkout.session.completed","session":"\#(sessionID)"}"#)
        let eventHeaders = (event["headers"] as? [String: String] ?? [:]).map { ($0.key, $0.value) }
        #expect(mina.webhook("/payments/webhooks/stripe", body: event["payload"] as? String ?? "", headers: eventHeaders).bodyText == "ok\n")

        // Staff give back $5 of it, with a reason Mina sees; the ledger still matches Stripe.
        let ledgerPage = crew + "/ledger"
        #expect(owner.post(crew + "/payments/\(id)/refund", [("amount", "25"), ("reason", "too much")], from: ledgerPage).status == .unprocessableContent)
        #expect(owner.post(crew + "/payments/\(id)/refund", [("amount", "5"), ("reason", "Early-bird discount")], from: ledgerPage).status == .seeOther)
        #expect(mina.post(crew + "/payments/\(id)/refund", [("amount", "5"), ("reason", "me too")], from: ledgerPage).status == .forbidden)
        let payment = try payment(id)
        #expect(payment.refundedAmount == 5 && payment.state == .paid)
        #expect(mina.get("/payments/\(id)").bodyText.contains("Early-bird discount"))
        #expect(mina.get("/settings/payments").bodyText.contains("Brooklyn Striders"))
        let check = owner.get(crew + "/ledger/check").bodyText
        #expect(check.contains("The ledger matches what the providers say"))
        let csv = owner.get(crew + "/ledger.csv")
        #expect(csv.headers["Content-Type"]?.hasPrefix("text/csv") == true && csv.bodyText.contains("refund,mina,-5,USD,stripe"))
        #expect(try double.requests().refusals.isEmpty)
    }

    @Test func aDeclinedApplicantGetsTheWholeFeeBackAndIsTold() throws {
        let (owner, mina) = { let b = site.members("owner", "mina"); return (b[0], b[1]) }()
        let crew = createCrew(owner, name: "Seoul Hoops", policy: "approval", fee: 30_000)
        #expect(mina.get(crew).bodyText.contains("Apply and pay ₩30,000"))
        let (id, _) = try startPaying(mina, crew, provider: "portone", amount: 30_000)
        _ = try double.portOneWindow(paymentID: id, amount: 30_000, returnURL: "http://moim.test/payments/\(id)/return")
        mina.get("/payments/\(id)/return?paymentId=\(id)")
        #expect(try role(crew, "mina") == .pending)
        #expect(mina.get("/payments/\(id)").bodyText.contains("staff"))
        #expect(owner.post(crew + "/members/mina/reject", [], from: crew + "/members").status == .seeOther)
        #expect(try role(crew, "mina") == nil)
        let payment = try payment(id)
        #expect(payment.refundedAmount == 30_000 && payment.refundReason.contains("declined"))
        #expect(try double.get("/payments/\(id)", authorization: "PortOne portone-test-secret")["status"] as? String == "CANCELLED")
        let ledger = try site.database.crews.ledger(crewID: payment.crewID)
        #expect(ledger.income == 30_000 && ledger.expenses == 30_000 && ledger.balance == 0)
        #expect(mina.get("/notifications").bodyText.contains("Seoul Hoops"))
    }

    @Test func duesArePaidOncePerPeriodAndShowInTheLedger() throws {
        let (owner, mina) = { let b = site.members("owner", "mina"); return (b[0], b[1]) }()
        let crew = createCrew(owner, name: "Busan Bay", fee: 0)
        #expect(mina.post(crew + "/join", [], from: crew).status == .seeOther, "no fee: joined as before")
        #expect(mina.post(crew + "/dues", [("name", "June dues"), ("amount", "20000"), ("due", "2026-06-30")], from: crew + "/ledger").status == .forbidden)
        #expect(owner.post(crew + "/dues", [("name", "June dues"), ("amount", "20000"), ("due", "2026-06-30")], from: crew + "/ledger").status == .seeOther)
        let ledger = mina.get(crew + "/ledger").bodyText
        #expect(ledger.contains("June dues") && ledger.contains("₩20,000") && ledger.contains("0 of 2 paid online"))
        let period = try #require(try site.database.payments.duesPeriods(crewID: try crewID(crew)).first?.period)
        let payURL = crew + "/pay?for=dues&period=\(period.id ?? 0)"
        #expect(mina.get(payURL).bodyText.contains("Busan Bay · June dues"))
        let started = mina.post(crew + "/pay", [("for", "dues"), ("period", "\(period.id ?? 0)"), ("amount", "20000"), ("provider", "portone")], from: payURL)
        let id = String((started.headers["Location"] ?? "").split(separator: "/")[1])
        _ = try double.portOneWindow(paymentID: id, amount: 20_000, returnURL: "http://moim.test/payments/\(id)/return")
        mina.get("/payments/\(id)/return?paymentId=\(id)")
        #expect(mina.get("/payments/\(id)").bodyText.contains("Your dues are paid"))
        #expect(mina.get(crew + "/ledger").bodyText.contains("1 of 2 paid online"))
        // Paid once: a second attempt is refused.
        #expect(mina.post(crew + "/pay", [("for", "dues"), ("period", "\(period.id ?? 0)"), ("amount", "20000"), ("provider", "portone")], from: crew + "/ledger").status == .conflict)
    }

    @Test func aProviderThatIsDownLeavesNothingHalfDoneAndTheSweepSettlesWhatNobodyCameBackFrom() throws {
        let (owner, mina) = { let b = site.members("owner", "mina"); return (b[0], b[1]) }()
        let crew = createCrew(owner, name: "Jeju Trails", fee: 10_000)
        try double.control("fault", #"{"prefix":"/payments/","kind":"500"}"#)
        let down = mina.post(crew + "/pay", [("for", "join"), ("amount", "10000"), ("provider", "portone")], from: crew + "/pay")
        #expect(down.status == .serviceUnavailable && down.headers["Retry-After"] == "60")
        #expect(down.bodyText.contains("try again in a minute"))
        let failed = try #require(try site.database.payments.payments(userID: try userID("mina")).first?.payment)
        #expect(failed.state == .cancelled)
        try double.control("fault", #"{"prefix":"/payments/"}"#)

        // The fee changes while the page is open: what was shown is refused, never charged.
        let payPage = mina.get(crew + "/pay").bodyText
        #expect(payPage.contains(#"name="amount" value="10000""#))
        owner.postMultipart(crew + "/edit", [
            ("name", "Jeju Trails"), ("slug", "jeju-trails"), ("sport", "running"), ("region", "seoul"), ("description", "Runs."), ("meeting_time", ""),
            ("meeting_place", ""), ("fee_amount", "12000"), ("fee_currency", "KRW"), ("fee_period", "once"), ("join_policy", "open"),
            ("member_cap", ""), ("refund_days", "0"),
        ], files: [], from: crew + "/edit")
        let stale = mina.post(crew + "/pay", [("for", "join"), ("amount", "10000"), ("provider", "portone")], from: crew)
        #expect(stale.status == .conflict && stale.bodyText.contains("The price changed"))

        // The fee changes while she is in the window: she pays what she was shown.
        let (shown, _) = try startPaying(mina, crew, provider: "portone", amount: 12_000)
        owner.postMultipart(crew + "/edit", [
            ("name", "Jeju Trails"), ("slug", "jeju-trails"), ("sport", "running"), ("region", "seoul"), ("description", "Runs."), ("meeting_time", ""),
            ("meeting_place", ""), ("fee_amount", "15000"), ("fee_currency", "KRW"), ("fee_period", "once"), ("join_policy", "open"),
            ("member_cap", ""), ("refund_days", "0"),
        ], files: [], from: crew + "/edit")
        _ = try double.portOneWindow(paymentID: shown, amount: 12_000, returnURL: "http://moim.test/payments/\(shown)/return")
        mina.get("/payments/\(shown)/return?paymentId=\(shown)")
        #expect(try self.payment(shown).state == .paid && (try role(crew, "mina")) == .member)
        mina.post(crew + "/leave", [], from: crew)

        // Paid in the window, but the browser never came back and no webhook came: the sweep asks.
        let (id, _) = try startPaying(mina, crew, provider: "portone", amount: 15_000)
        _ = try double.portOneWindow(paymentID: id, amount: 15_000, returnURL: "http://moim.test/payments/\(id)/return")
        #expect(try role(crew, "mina") == nil)
        try site.app.sweep(now: Date().addingTimeInterval(120))
        #expect(try role(crew, "mina") == .member)
    }

    @Test func leavingWithinTheRefundWindowGivesTheFeeBack() throws {
        let (owner, mina) = { let b = site.members("owner", "mina"); return (b[0], b[1]) }()
        let crew = createCrew(owner, name: "Daegu Milers", fee: 15_000, refundDays: 7)
        let (id, _) = try startPaying(mina, crew, provider: "portone", amount: 15_000)
        _ = try double.portOneWindow(paymentID: id, amount: 15_000, returnURL: "http://moim.test/payments/\(id)/return")
        mina.get("/payments/\(id)/return?paymentId=\(id)")
        #expect(try role(crew, "mina") == .member)
        #expect(mina.post(crew + "/leave", [], from: crew).status == .seeOther)
        let payment = try payment(id)
        #expect(payment.refundedAmount == 15_000 && payment.refundReason.contains("7 days"))
    }

    @Test func aSiteWithNoProviderWorksAsBefore() throws {
        let plain = try TestSite()
        let (owner, mina) = { let b = plain.members("owner", "mina"); return (b[0], b[1]) }()
        let crew = owner.postMultipart("/crews", [
            ("name", "Plain Runners"), ("slug", ""), ("sport", "running"), ("region", "seoul"), ("description", "Runs."), ("meeting_time", ""),
            ("meeting_place", ""), ("fee_amount", "10000"), ("fee_currency", "KRW"), ("fee_period", "month"), ("join_policy", "open"), ("member_cap", ""),
        ], files: [], from: "/crews/new").headers["Location"] ?? ""
        #expect(!mina.get(crew).bodyText.contains("Join and pay"))
        #expect(mina.get(crew + "/pay").status == .notFound)
        #expect(mina.post(crew + "/join", [], from: crew).headers["Location"] == crew)
        #expect(owner.get(crew + "/ledger").bodyText.contains("Paying online is not set up"))
    }

    /// Two servers on one PostgreSQL database: the browser's return reaches one while PortOne's
    /// webhook reaches the other, at the same moment. The member joins once.
    @Test(.enabled(if: TestDatabase.onPostgres, "two servers share PostgreSQL (TEST_DB=postgres)"))
    func aReturnOnOneServerAndTheWebhookOnTheOtherJoinTheMemberOnce() throws {
        let url = try TestDatabase.freshPostgresURL()
        var configuration = TestSite.configuration()
        configuration.baseURL = PublicURL("http://moim.test")
        configuration.payments = double.configuration
        let first = try TestSite(configuration: configuration, database: try AppDatabase.open(postgres: url, connections: 4))
        let second = try TestSite(configuration: configuration, database: try AppDatabase.open(postgres: url, connections: 4))
        let (owner, mina) = { let b = first.members("owner", "mina"); return (b[0], b[1]) }()
        let crew = createCrew(owner, name: "Two Rivers", fee: 10_000)
        mina.post(crew + "/pay", [("for", "join"), ("amount", "10000"), ("provider", "portone")], from: crew + "/pay")
        let userID = try #require(try first.database.accounts.user(username: "mina")).storedID
        let id = try #require(try first.database.payments.payments(userID: userID).first?.payment.publicID)
        _ = try double.portOneWindow(paymentID: id, amount: 10_000, returnURL: "http://moim.test/payments/\(id)/return")

        let body = #"{"type":"Transaction.Paid","timestamp":"2026-11-26T00:00:00Z","data":{"paymentId":"\#(id)","storeId":"\#(PaymentDouble.storeID)","transactionId":"tx"}}"#
        let headers = try double.sign("portone", body)
        // Each browser is used by one thread only.
        nonisolated(unsafe) let onFirst = mina
        nonisolated(unsafe) let onSecond = Browser(app: second.app, language: nil, address: "127.0.0.1")
        let answers = Mutex<[HTTPStatus]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { turn in
            let status = turn == 0 ? onFirst.get("/payments/\(id)/return?paymentId=\(id)").status
                : onSecond.webhook("/payments/webhooks/portone", body: body, headers: headers).status
            answers.withLock { $0.append(status) }
        }
        #expect(answers.withLock { $0 }.sorted { $0.code < $1.code } == [.ok, .seeOther])
        let crewID = try #require(try second.database.crews.crew(slug: "two-rivers")).storedID
        #expect(try second.database.crews.crewRole(crewID: crewID, userID: userID) == .member)
        #expect(try second.database.crews.crew(id: crewID)?.memberCount == 2)
        #expect(try second.database.crews.ledger(crewID: crewID).entries.filter { $0.kind == .fee }.count == 1)
    }

    /// Hostile requests through the real server: each gets its answer, and it stays up.
    @Test func hostileWebhooksAndFormsThroughTheServerGetClearAnswers() throws {
        var configuration = TestSite.configuration()
        configuration.baseURL = PublicURL("http://moim.test")
        configuration.payments = double.configuration
        let live = try LiveSite(web: configuration)
        let huge = [UInt8](repeating: 0x7B, count: 10 << 20)
        let tooLarge = try live.send("POST /payments/webhooks/stripe HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + "Stripe-Signature: t=1,v1=00\r\nContent-Length: \(huge.count)\r\nConnection: close\r\n\r\n", body: huge)
        #expect(tooLarge.hasPrefix("HTTP/1.1 413"))
        for (provider, headers, body) in [
            ("portone", "webhook-id: x\r\nwebhook-timestamp: 99999999999999999999999\r\nwebhook-signature: v1,%%%\r\n", "{\"type\":"),
            ("portone", "", "\u{0}\u{1}not json"),
            ("stripe", "Stripe-Signature: t=-1,v1=zz,v1=\r\n", "[1,2,3]"),
            ("stripe", "Stripe-Signature: \(String(repeating: "v1=00,", count: 2_000))\r\n", "{}"),
        ] {
            let answer = try live.send("POST /payments/webhooks/\(provider) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\(headers)"
                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n", body: Array(body.utf8))
            #expect(answer.hasPrefix("HTTP/1.1 400"), "\(provider): \(answer.prefix(60))")
        }
        let strange = try live.get("/payments/%00%ff/return?paymentId=%00")
        #expect(strange.hasPrefix("HTTP/1.1 404") || strange.hasPrefix("HTTP/1.1 400"), "\(strange.prefix(60))")
        let owner = live.site.browser()
        owner.signUp(username: "owner")
        let crew = createCrew(owner, name: "Hostile Hills", fee: 10_000)
        for amount in ["1e300", "-1", "9223372036854775808", "", "10000.0", "<script>", "inf", "nan", "1%00", "10000\u{0}"] {
            let answer = try live.post(crew + "/pay", [("for", "join"), ("amount", amount), ("provider", "portone")])
            #expect(answer.hasPrefix("HTTP/1.1 422"), "amount \(amount): \(answer.prefix(40))")
        }
        #expect(try live.post(crew + "/pay", [("for", "join"), ("amount", "10000"), ("provider", "paypal")]).hasPrefix("HTTP/1.1 422"))
        #expect(try live.post(crew + "/pay", [("for", "dues"), ("period", "99999999999999999999"), ("amount", "1"), ("provider", "portone")]).hasPrefix("HTTP/1.1 403"))
        #expect(live.isUp)
    }

    /// A receipt for the fee and a notice of the refund, by mail, in the member's language.
    @Test func receiptsAndRefundNoticesComeByMailInTheMembersLanguage() throws {
        let sink = try MailSink()
        var configuration = TestSite.configuration()
        configuration.baseURL = PublicURL("http://moim.test")
        configuration.payments = double.configuration
        configuration.mail = MailConfiguration(server: SMTPServer(url: sink.url)!, from: MailAddress(name: "Moim", address: "moim@moim.test"))
        let site = try TestSite(configuration: configuration)
        let (owner, mina) = { let b = site.members("owner", "mina"); return (b[0], b[1]) }()
        try site.app.runMail()
        let welcome = try #require(sink.messages().last { $0.recipient == "mina@example.com" })
        let verify = try #require(welcome.links.first { $0.contains("/email/verify/") })
        #expect(mina.get(String(verify.dropFirst("http://moim.test".count))).status == .seeOther)
        mina.post("/language", [("language", "ko")], from: "/")

        let crew = owner.postMultipart("/crews", [
            ("name", "Mapo Milers"), ("slug", ""), ("sport", "running"), ("region", "seoul"), ("description", "Runs."), ("meeting_time", ""),
            ("meeting_place", ""), ("fee_amount", "10000"), ("fee_currency", "KRW"), ("fee_period", "once"), ("join_policy", "open"),
            ("member_cap", ""), ("refund_days", "0"),
        ], files: [], from: "/crews/new").headers["Location"] ?? ""
        let started = mina.post(crew + "/pay", [("for", "join"), ("amount", "10000"), ("provider", "portone")], from: crew + "/pay")
        let id = String((started.headers["Location"] ?? "").split(separator: "/")[1])
        _ = try double.portOneWindow(paymentID: id, amount: 10_000, returnURL: "http://moim.test/payments/\(id)/return")
        mina.get("/payments/\(id)/return?paymentId=\(id)")
        owner.post(crew + "/payments/\(id)/refund", [("amount", "3000"), ("reason", "조기 등록 할인")], from: crew + "/ledger")
        try site.app.runMail()
        let mails = sink.waitForMessages(4).filter { $0.recipient == "mina@example.com" && $0.text.contains("Mapo Milers") }
        #expect(mails.contains { $0.text.contains("Mapo Milers에 ₩10,000을 결제했습니다") && $0.links.contains("http://moim.test/payments/\(id)") })
        #expect(mails.contains { $0.text.contains("₩3,000") && $0.text.contains("조기 등록 할인") })
        #expect(!sink.messages().contains { $0.recipient == "owner@example.com" && $0.text.contains("₩10,000") }, "the owner's address was never verified")
    }
}
