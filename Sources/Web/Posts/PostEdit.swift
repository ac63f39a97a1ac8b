import Formats
import HTTP
import Storage

extension App {
    /// `GET /posts/:id/edit`: the author's form to change the text (photos stay as they are).
    func postEdit(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let item = try feedItem(context)
        guard item.author.id == user.id else { throw HTTPError(.notFound) }
        return renderPostForm(body: item.post.body, errors: FieldErrors(), badFile: nil, editing: item.post.id, photos: item.photos, context)
    }

    /// `POST /posts/:id/edit`
    func postUpdate(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let item = try feedItem(context)
        guard item.author.id == user.id else { throw HTTPError(.notFound) }
        try requireCanPost(user, nil, context)
        let form = PostForm(context)
        let postID = try item.post.storedID
        // Photos ticked to go (the post's own), and room for new ones beside those that stay.
        let removing = Set(context.form.values("remove").compactMap(Checked.id)).intersection(item.photos.compactMap(\.id))
        let kept = item.photos.count - removing.count
        let (images, errors, badFile) = try form.validate(requirePhotosOrText: kept == 0, images: media.images, room: PostForm.maximumPhotos - kept)
        guard errors.isEmpty else {
            return renderPostForm(body: form.body, errors: errors, badFile: badFile, editing: postID, photos: item.photos, removing: removing, context)
        }
        let content = try postContent(form.body)
        let added = try media.save(images)
        do {
            let (_, removed) = try storageAction(context, [.full: .errors.photo_count, .rejected: .errors.post_empty]) {
                try database.posts.updatePost(id: postID, authorID: user.storedID, content: content, removing: removing, adding: added)
            }
            media.delete(removed)
        } catch {
            media.delete(added.map(\.fileName))
            throw error
        }
        return redirect(to: Paths.post(postID), flash: \.post_saved)
    }

    /// `POST /posts/:id/delete`: removes the post, its comments and its photo files. Its
    /// author may, and so may the staff of the crew it was posted in.
    func postDelete(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        guard let id = context.request.parameters["id"].flatMap(Checked.id) else { throw HTTPError(.notFound) }
        let files: [String]
        do {
            files = try database.posts.deletePost(id: id, authorID: user.storedID)
        } catch StorageError.notFound {
            do {
                files = try database.crews.deleteCrewPost(id: id, by: user.storedID)
            } catch StorageError.notFound, StorageError.forbidden {
                throw HTTPError(.notFound)
            }
        }
        media.delete(files)
        return redirect(to: Paths.profile(user.username), flash: \.post_deleted)
    }
}
