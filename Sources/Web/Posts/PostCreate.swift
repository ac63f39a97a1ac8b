import HTTP
import Storage

extension App {
    /// `POST /posts`: stores the photos (fsynced), then the post; nothing is kept if any
    /// part is refused.
    func postCreate(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        try requireCanPost(user, .posts, context)
        let form = PostForm(context)
        var (images, errors, badFile) = try form.validate(images: media.images)
        if isNewAccount(user), form.linkCount > configuration.newAccountLimits.links { errors.add("body", .errors.too_many_links) }
        guard errors.isEmpty else {
            return renderPostForm(body: form.body, errors: errors, badFile: badFile, editing: nil, context)
        }
        let crew = try (context.form["crew"]).flatMap { $0.isEmpty ? nil : $0 }.map { slug -> Crew in
            guard let crew = try database.crews.crew(slug: slug) else { throw HTTPError(.notFound) }
            return crew
        }
        let content = try postContent(form.body)
        let photos = try media.save(images)
        do {
            let post = try storageAction(context) {
                try database.posts.createPost(authorID: user.storedID, content: content, photos: photos, crewID: crew?.storedID)
            }
            return redirect(to: Paths.post(try post.storedID), flash: \.post_published)
        } catch {
            media.delete(photos.map(\.fileName))
            throw error
        }
    }
}
