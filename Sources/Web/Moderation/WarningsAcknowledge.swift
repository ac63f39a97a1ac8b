import HTTP
import Storage

extension App {
    /// `POST /warnings/ack`: "I have read this."
    func warningsAcknowledge(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        try database.moderation.acknowledgeWarnings(userID: user.storedID)
        return redirect(to: Paths.local(context.form["return_to"]))
    }
}
