import Formats
import HTTP
import Storage

/// A message as typed: its text and the message it answers (its photos come apart, as
/// `PhotoUploads`).
struct MessageForm {
    var body: String
    /// `reply_to`: an id, or nothing (garbage is nothing, not an error).
    var replyToID: Int64?

    init(_ form: URLEncodedForm) {
        body = (form["body"] ?? "").trimmed.replacingOccurrences(of: "\r\n", with: "\n")
        replyToID = form["reply_to"].flatMap { Checked.id($0) }
    }

    /// The text fit to send, or the catalog key of what is wrong with it. Empty is fine for a
    /// message that carries something else (photos).
    func validate(carriesMore: Bool = false) -> Result<String, MessageProblem> {
        guard !body.isEmpty || carriesMore else { return .failure(.empty) }
        guard body.unicodeScalars.count <= Message.maximumLength else { return .failure(.tooLong) }
        guard !body.hasControlCharacters else { return .failure(.controlCharacters) }
        return .success(body)
    }
}

enum MessageProblem: Error, Equatable {
    case empty, tooLong, controlCharacters

    var key: TextKey {
        switch self {
        case .empty: .talk.errors.empty
        case .tooLong: .talk.errors.too_long
        case .controlCharacters: .talk.errors.control
        }
    }
}
