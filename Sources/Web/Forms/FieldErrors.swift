import Foundation
import HTTP

/// Validation errors of a form: for each field, the catalog key of its first problem (and
/// the values its text names, if any).
struct FieldErrors {
    private var problems: [String: (key: TextKey, arguments: [String: String])] = [:]

    var isEmpty: Bool { problems.isEmpty }

    /// The fields with a problem.
    var fields: Set<String> { Set(problems.keys) }

    mutating func add(_ field: String, _ key: TextKey, _ arguments: [String: String] = [:]) {
        if problems[field] == nil { problems[field] = (key, arguments) }
    }

    func localized(_ localizer: Localizer, _ language: Language) -> [String: String] {
        problems.mapValues { localizer.text($0.key, language, $0.arguments) }
    }
}

extension String {
    /// Trimmed of surrounding white space, the way every text field is read.
    var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }

    /// True if the text holds control characters other than line breaks and tabs.
    var hasControlCharacters: Bool {
        unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" && $0 != "\r" && $0 != "\t" }
    }

    /// True if a text of at most `maximum` code points (and at least `minimum`) without
    /// control characters. Code points, not characters: that is what the schema's
    /// `length()` CHECKs count, so one letter with 400 combining marks is 401 long here too.
    func fits(_ minimum: Int = 0, _ maximum: Int) -> Bool {
        (minimum...maximum).contains(unicodeScalars.count) && !hasControlCharacters
    }

    /// The text cut to at most `maximum` code points, at a character boundary, with control
    /// characters other than line breaks dropped: for optional notes that are kept short.
    func clipped(_ maximum: Int) -> String {
        var kept = ""
        var length = 0
        for character in self where !String(character).hasControlCharacters {
            let scalars = character.unicodeScalars.count
            guard length + scalars <= maximum else { break }
            kept.append(character)
            length += scalars
        }
        return kept
    }

    /// True if a one-line name (a display name, a crew name, a meetup title) is fit to show
    /// as someone's name: within its length, and free of invisible format characters that
    /// spoof one (right-to-left overrides, isolates, zero-width spaces). The emoji joiner
    /// U+200D stays allowed, or family and flag emoji would break.
    func isName(_ minimum: Int = 1, _ maximum: Int) -> Bool {
        fits(minimum, maximum) && !unicodeScalars.contains { $0.properties.generalCategory == .format && $0 != "\u{200D}" }
            && !contains(where: \.isNewline)
    }
}


extension App {
    /// The trimmed text of a one-field form (a comment, a talk message), or 422 saying how long
    /// it may be.
    func shortText(_ context: RequestContext, field: String = "body", maximum: Int, message: TextKey) throws -> String {
        let text = (context.form[field] ?? "").trimmed
        guard text.fits(1, maximum) else {
            throw HTTPError(.unprocessableContent, message: localizer.text(message, context.language))
        }
        return text
    }
}
