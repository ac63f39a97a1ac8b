import HTTP
import Storage

extension App {
    /// The page for a write that storage refused: the status that fits the rule, with the
    /// catalog text of `messages` where the caller has a more precise one than the default.
    /// Every refusal has one (the switch names them all), and `errorResponse` uses it for a
    /// refusal no handler caught: a rule of the schema that refused a write is a 422 for the
    /// form, never a 500.
    func refusal(_ error: StorageError, _ language: Language, _ messages: [StorageError: TextKey] = [:]) -> HTTPError {
        let text = { (fallback: TextKey) in self.localizer.text(messages[error] ?? fallback, language) }
        return switch error {
        case .forbidden: HTTPError(.forbidden, message: text(.errors.code403.message))
        case .full, .duplicate, .locked: HTTPError(.conflict, message: text(.errors.code409.message))
        case .wrongInviteCode: HTTPError(.unprocessableContent, message: text(.crews.errors.invite_code))
        case .ownerCannotLeave: HTTPError(.conflict, message: text(.crews.errors.owner_leave))
        case .slugTaken: HTTPError(.conflict, message: text(.errors.crew_slug_taken))
        case .usernameTaken: HTTPError(.conflict, message: text(.errors.username_taken))
        case .emailTaken: HTTPError(.conflict, message: text(.errors.email_taken))
        case .rejected: HTTPError(.unprocessableContent, message: text(.errors.code422.message))
        case .unavailable: HTTPError(.serviceUnavailable, headers: ["Retry-After": "5"])
        case .notFound: HTTPError(.notFound)
        case .priceChanged: HTTPError(.conflict, message: text(.payments.errors.price_changed))
        }
    }

    /// Runs a storage write, turning its refusals into pages (see `refusal`).
    func storageAction<T>(_ context: RequestContext, _ messages: [StorageError: TextKey] = [:], _ action: () throws -> T) throws -> T {
        do {
            return try action()
        } catch let error as StorageError {
            throw refusal(error, context.language, messages)
        }
    }
}
