import HTTP
import Storage

extension App {
    /// `POST /crews/:slug/join`: joins, asks to join, or joins with the invite code.
    func crewJoin(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let crew = try crew(context)
        // A crew that asks a fee a provider takes is joined by paying it: no way around the payment page.
        if crew.feeAmount > 0, !paymentProviders.providers(for: crew.feeCurrency).isEmpty {
            return redirect(to: Paths.crewPay(crew.slug))
        }
        let role = try storageAction(context, Self.crewRefusals) {
            try database.crews.joinCrew(id: crew.storedID, userID: user.storedID, inviteCode: context.form["code"]?.trimmed)
        }
        return redirect(to: Paths.crew(crew.slug), flash: role == .pending ? \.crew_requested : \.crew_joined)
    }

    /// `POST /crews/:slug/leave`: leaves the crew, or withdraws a request.
    func crewLeave(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let crew = try crew(context)
        let fee = try storageAction(context, Self.crewRefusals) { try database.crews.leaveCrew(id: crew.storedID, userID: user.storedID) }
        fee.map { refundJoinFee($0, reason: localizer.count(.payments.refund_reasons.left, crew.refundDays, context.language)) }
        return redirect(to: Paths.crew(crew.slug), flash: fee == nil ? \.crew_left : \.crew_left_refunded)
    }

    /// Gives back a join fee the crew no longer keeps (a declined application, leaving within
    /// the refund window); if the provider cannot be reached now, the sweep does it later.
    func refundJoinFee(_ payment: Payment, reason: String) {
        do {
            try giveBack(payment, amount: nil, reason: reason, by: nil)
        } catch {
            log("payment \(payment.publicID): the join fee could not be given back yet, the sweep will: \(error)")
        }
    }

    /// `POST /crews/:slug/invite`: a new invite code (the old one stops working).
    func crewInviteRegenerate(_ context: RequestContext) throws -> HTTPResponse {
        let (crew, user) = try staffCrew(context)
        try storageAction(context, Self.crewRefusals) { try database.crews.setInviteCode(crewID: crew.storedID, by: user.storedID, code: Self.newInviteCode()) }
        return redirect(to: Paths.crew(crew.slug), flash: \.invite_regenerated)
    }
}
