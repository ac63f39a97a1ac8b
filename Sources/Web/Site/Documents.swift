import Formats
import Foundation
import HTTP
import Markdown
import Storage

/// One of the operator's documents as the public reads it: the current version, or an earlier
/// one (`?version=2`), with every version listed.
struct DocumentView: PageView {
    static let template = "document"
    let title: String
    /// "Version 3, published 2026-11-27"
    let versionLine: String
    let bodyHTML: String
    let isOld: Bool
    let currentURL: String
    let history: [DocumentVersionLink]
    var hasHistory: Bool { history.count > 1 }
}

struct DocumentVersionLink {
    let label: String
    let url: String
    let shown: Bool
}

extension App {
    func documentTitle(_ kind: SiteDocument.Kind, _ language: Language) -> String {
        switch kind {
        case .terms: localizer.text(.documents.terms, language)
        case .privacy: localizer.text(.documents.privacy, language)
        case .refunds: localizer.text(.documents.refunds, language)
        }
    }

    func versionLine(_ version: Int, _ publishedAt: Date, _ language: Language) -> String {
        localizer.text(.documents.version, language, ["version": String(version), "date": localizer.date(publishedAt, language)])
    }

    /// `GET /terms`, `/privacy`, `/refunds` (`?version=N` for an earlier one).
    func documentPage(_ kind: SiteDocument.Kind) -> Page {
        { [unowned self] context in
            let asked = try context.form["version"].map { text in
                guard let version = Checked.integer(text, in: 1...1_000_000) else { throw HTTPError(.notFound) }
                return version
            }
            guard let document = try database.accounts.document(kind, version: asked) else { throw HTTPError(.notFound) }
            let history = try database.accounts.documentHistory(kind)
            let language = context.language
            let view = DocumentView(
                title: documentTitle(kind, language), versionLine: versionLine(document.version, document.publishedAt, language),
                bodyHTML: MarkdownRenderer.html(document.body), isOld: document.version != history.first?.version,
                currentURL: Paths.document(kind),
                history: history.map { entry in
                    DocumentVersionLink(label: versionLine(entry.version, entry.publishedAt, language),
                                        url: Paths.document(kind) + "?version=\(entry.version)", shown: entry.version == document.version)
                })
            return page(view, context, title: view.title)
        }
    }
}
