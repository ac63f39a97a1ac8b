import Foundation
import HTTP
import Markdown
import Storage

/// The admin's list of documents, and the one being edited.
struct AdminDocumentsView: PageView {
    static let template = "admin-documents"
    var tab: AdminTabMarks { AdminTabMarks(current: .documents) }
    let documents: [AdminDocumentRow]
    let editing: AdminDocumentEditor?
}

struct AdminDocumentRow {
    let title: String
    let versionLine: String
    let url: String
    let editURL: String
}

struct AdminDocumentEditor {
    let kind: String
    let title: String
    let body: String
    let error: String?
}

extension App {
    /// `GET /admin/documents` (and `/admin/documents/:kind` with its editor): admins only.
    func adminDocuments(_ context: RequestContext, _ staff: User) throws -> HTTPResponse {
        guard staff.role == .admin else { throw HTTPError(.notFound) }
        let editing = try context.request.parameters["kind"].map { name in
            guard let kind = SiteDocument.Kind(rawValue: name) else { throw HTTPError(.notFound) }
            return kind
        }
        return try renderAdminDocuments(editing: editing, body: nil, error: nil, context)
    }

    /// `POST /admin/documents/:kind/versions`: the text as a new version. Markdown only: raw HTML or a
    /// script link is refused (the page would drop it anyway) so the admin sees what members get.
    func adminDocumentPublish(_ context: RequestContext, _ staff: User) throws -> HTTPResponse {
        guard staff.role == .admin, let kind = context.request.parameters["kind"].flatMap(SiteDocument.Kind.init(rawValue:)) else {
            throw HTTPError(.notFound)
        }
        let body = (context.form["body"] ?? "").replacingOccurrences(of: "\r\n", with: "\n").trimmed
        let problem: TextKey? = !body.fits(1, SiteDocument.maximumLength) ? .errors.document_length
            : MarkdownRenderer.holdsScript(body) ? .errors.document_html : nil
        if let problem {
            return try renderAdminDocuments(editing: kind, body: body, error: localizer.text(problem, context.language), context)
        }
        _ = try database.accounts.publishDocument(kind, body: body)
        documentVersions.forget()
        return redirect(to: "/admin/documents", flash: \.document_published)
    }

    private func renderAdminDocuments(editing: SiteDocument.Kind?, body: String?, error: String?, _ context: RequestContext) throws -> HTTPResponse {
        let language = context.language
        let rows = try SiteDocument.Kind.allCases.compactMap { kind -> AdminDocumentRow? in
            guard let current = try database.accounts.document(kind) else { return nil }
            return AdminDocumentRow(title: documentTitle(kind, language), versionLine: versionLine(current.version, current.publishedAt, language),
                                    url: Paths.document(kind), editURL: "/admin/documents/\(kind.rawValue)#editor")
        }
        let editor = try editing.map { kind in
            AdminDocumentEditor(kind: kind.rawValue, title: documentTitle(kind, language),
                                body: try body ?? database.accounts.document(kind)?.body ?? "", error: error)
        }
        let view = AdminDocumentsView(documents: rows, editing: editor)
        return page(view, context, title: localizer.text(.documents.admin_title, language), status: error == nil ? .ok : .unprocessableContent)
    }
}
