import HTTP

extension App {
    /// `GET /posts/new`
    func postNew(_ context: RequestContext) throws -> HTTPResponse {
        _ = try context.requireUser()
        return try renderPostForm(body: "", errors: FieldErrors(), badFile: nil, editing: nil, context)
    }

    /// The compose form, for a new post or (with `editing`) an existing one.
    func renderPostForm(body: String, errors: FieldErrors, badFile: String?, editing: Int64?, _ context: RequestContext) throws -> HTTPResponse {
        let language = context.language
        var messages = errors.localized(localizer, language)
        if let badFile, let message = messages["photos"] { messages["photos"] = "\(badFile): \(message)" }
        return try render(
            "post-form", context, title: localizer.text(editing == nil ? "posts.new_title" : "posts.edit_title", language),
            section: .feed, status: errors.isEmpty ? .ok : .unprocessableContent,
            [
                "body": body,
                "action": editing.map { Paths.post($0) + "/edit" } ?? "/posts",
                "editing": editing != nil,
                "errors": messages,
                "hasErrors": !errors.isEmpty,
                "maxPhotos": PostForm.maximumPhotos,
                "crew": (editing == nil ? context.form["crew"] : nil) as Any,
            ]
        )
    }
}
