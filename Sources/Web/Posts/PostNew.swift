import HTTP

/// The compose form, for a new post or an edit.
struct PostFormView: PageView {
    static let template = "post-form"
    let body: String
    let action: String
    let editing: Bool
    /// Each field's error message, by field name.
    let errors: [String: String]
    var hasErrors: Bool { !errors.isEmpty }
    /// The crew a new post is written in (`?crew=slug`).
    let crew: String?
}

extension App {
    /// `GET /posts/new`
    func postNew(_ context: RequestContext) throws -> HTTPResponse {
        _ = try context.requireUser()
        return renderPostForm(body: "", errors: FieldErrors(), badFile: nil, editing: nil, context)
    }

    /// The compose form, for a new post or (with `editing`) an existing one.
    func renderPostForm(body: String, errors: FieldErrors, badFile: String?, editing: Int64?, _ context: RequestContext) -> HTTPResponse {
        let language = context.language
        var messages = errors.localized(localizer, language)
        if let badFile, let message = messages["photos"] { messages["photos"] = "\(badFile): \(message)" }
        let view = PostFormView(
            body: body, action: editing.map { Paths.post($0) + "/edit" } ?? "/posts", editing: editing != nil,
            errors: messages, crew: editing == nil ? context.form["crew"] : nil)
        return page(view, context, title: localizer.text(editing == nil ? .posts.new_title : .posts.edit_title, language),
                    section: .feed, status: errors.isEmpty ? .ok : .unprocessableContent)
    }
}
