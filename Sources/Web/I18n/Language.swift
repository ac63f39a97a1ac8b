import Formats
import Foundation

/// The languages Moim's interface is written in.
public enum Language: String, CaseIterable, Sendable {
    case en, ko

    /// Whether a text counting `count` takes its singular form (CLDR's plural category "one"):
    /// in English for 1 alone; Korean nouns do not change with a count.
    func isSingular(_ count: Int) -> Bool {
        switch self {
        case .en: count == 1
        case .ko: false
        }
    }

    /// How many language ranges of an `Accept-Language` header are read.
    static let rangeLimit = 32

    /// The best language for an `Accept-Language` header (RFC 9110 §12.5.4), or nil.
    static func preferred(by header: String?) -> Language? {
        guard let header else { return nil }
        var best: (Language, Double)? = nil
        // Browsers send a handful of ranges; a header of thousands would cost every request.
        for item in header.split(separator: ",", maxSplits: Self.rangeLimit).prefix(Self.rangeLimit) {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = parts.first?.lowercased() else { continue }
            let primary = tag.split(separator: "-").first.map(String.init) ?? tag
            let quality = parts.dropFirst()
                .first { $0.hasPrefix("q=") }
                .map { Checked.decimal($0.dropFirst(2), in: 0...1) ?? 0 } ?? 1
            guard quality > 0, let language = Language(rawValue: primary) else { continue }
            if quality > (best?.1 ?? 0) { best = (language, quality) }
        }
        return best?.0
    }

    var localeIdentifier: String {
        switch self {
        case .en: "en_US"
        case .ko: "ko_KR"
        }
    }
}

