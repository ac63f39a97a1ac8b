import Foundation
import HTTP

/// Validation errors of a form: for each field, the catalog key of its first problem.
struct FieldErrors {
    private(set) var keys: [String: String] = [:]

    var isEmpty: Bool { keys.isEmpty }

    mutating func add(_ field: String, _ key: String) {
        if keys[field] == nil { keys[field] = key }
    }

    func localized(_ localizer: Localizer, _ language: Language) -> [String: String] {
        keys.mapValues { localizer.text($0, language) }
    }
}

extension String {
    /// Trimmed of surrounding white space, the way every text field is read.
    var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }

    /// True if the text holds control characters other than line breaks and tabs.
    var hasControlCharacters: Bool {
        unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" && $0 != "\r" && $0 != "\t" }
    }
}


extension App {
    /// The trimmed text of a one-field form (a comment, a talk message), or 422 saying how long
    /// it may be.
    func shortText(_ context: RequestContext, field: String = "body", maximum: Int, message: String) throws -> String {
        let text = (context.form[field] ?? "").trimmed
        guard !text.isEmpty, text.count <= maximum, !text.hasControlCharacters else {
            throw HTTPError(.unprocessableContent, message: localizer.text(message, context.language))
        }
        return text
    }
}
