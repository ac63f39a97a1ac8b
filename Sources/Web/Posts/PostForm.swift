import HTTP
import Imaging
import Storage

/// The new-post and edit-post form: Markdown text and up to ten photos.
struct PostForm {
    static let maximumLength = 10_000
    static let maximumPhotos = PostStore.maximumPhotos

    var body: String
    var photos: PhotoUploads

    init(_ context: RequestContext) {
        body = (context.form["body"] ?? "").replacingOccurrences(of: "\r\n", with: "\n").trimmed
        photos = PhotoUploads(context)
    }

    /// Links in the text, for the cap on new accounts.
    var linkCount: Int {
        body.components(separatedBy: "http://").count + body.components(separatedBy: "https://").count - 2
    }

    /// Checks the text and every photo; on success, the photos ready to store. Throws only
    /// when every decoding slot stays busy (503).
    /// `room`: how many new photos the post can take (fewer when editing one that has some).
    func validate(requirePhotosOrText: Bool = true, images processor: ImageProcessor, room: Int = maximumPhotos)
        throws -> (images: [ProcessedImage], errors: FieldErrors, badFile: String?)
    {
        var errors = FieldErrors()
        if !body.fits(0, Self.maximumLength) { errors.add("body", .errors.post_length) }
        if requirePhotosOrText, body.isEmpty, photos.isEmpty { errors.add("body", .errors.post_empty) }
        let (images, badFile) = try photos.process(maximum: max(0, room), with: processor, errors: &errors)
        return (images, errors, badFile)
    }
}

extension App {
    /// Renders Markdown to HTML, linking tags and the mentions of real members.
    func postContent(_ markdown: String) throws -> PostContent {
        var ids: [String: Int64] = [:]
        var failure: (any Error)? = nil
        let document = MarkdownRenderer.render(markdown) { candidates in
            do { ids = try database.posts.userIDs(usernames: candidates) } catch { failure = error }
            return Set(ids.keys)
        }
        if let failure { throw failure }
        return PostContent(body: markdown, bodyHTML: document.html, tags: document.tags,
                           mentionedUserIDs: document.mentions.compactMap { ids[$0] })
    }
}

import Markdown
