import HTTP
import Storage

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
    /// An edited post's photos, each with a box to remove it.
    var photos: [EditedPhotoView] = []
    var hasPhotos: Bool { !photos.isEmpty }
    /// Photos the post may still take.
    var room: Int = PostForm.maximumPhotos
    var hasRoom: Bool { room > 0 }
}

/// A photo of a post being edited.
struct EditedPhotoView {
    let id: Int64
    let url: String
    let width: Int
    let height: Int
    let alt: String
    /// Ticked to go when the form is saved.
    let removing: Bool
}

extension App {
    /// `GET /posts/new`
    func postNew(_ context: RequestContext) throws -> HTTPResponse {
        _ = try context.requireUser()
        return renderPostForm(body: "", errors: FieldErrors(), badFile: nil, editing: nil, context)
    }

    /// The compose form, for a new post or (with `editing`) an existing one.
    func renderPostForm(body: String, errors: FieldErrors, badFile: String?, editing: Int64?, photos: [Photo] = [], removing: Set<Int64> = [],
                        _ context: RequestContext) -> HTTPResponse {
        let language = context.language
        var messages = errors.localized(localizer, language)
        if let badFile, let message = messages["photos"] { messages["photos"] = "\(badFile): \(message)" }
        var view = PostFormView(
            body: body, action: editing.map { Paths.post($0) + "/edit" } ?? "/posts", editing: editing != nil,
            errors: messages, crew: editing == nil ? context.form["crew"] : nil)
        view.photos = photos.enumerated().map { index, photo in
            EditedPhotoView(id: photo.id ?? 0, url: Paths.media(photo.fileName), width: photo.width, height: photo.height,
                            alt: localizer.text(.posts.photo_number, language, ["number": String(index + 1)]), removing: removing.contains(photo.id ?? 0))
        }
        view.room = PostForm.maximumPhotos - photos.count + removing.count
        return page(view, context, title: localizer.text(editing == nil ? .posts.new_title : .posts.edit_title, language),
                    section: .feed, status: errors.isEmpty ? .ok : .unprocessableContent)
    }
}
