import Foundation
import HTTP
import Storage

extension App {
    /// What the post card template shows for one post.
    func postView(_ item: FeedItem, _ context: RequestContext) -> [String: Any] {
        let language = context.language
        let id = item.post.id ?? 0
        let photos: [[String: Any]] = item.photos.enumerated().map { index, photo in
            ["url": Paths.media(photo.fileName), "width": photo.width, "height": photo.height,
             "alt": localizer.text("posts.photo_alt", language, ["number": String(index + 1), "name": item.author.displayName])]
        }
        return [
            "id": id,
            "url": Paths.post(id),
            "author": userView(item.author),
            "bodyHTML": item.post.bodyHTML,
            "date": localizer.dateTime(item.post.createdAt, language),
            "isoDate": InternetDate.format(item.post.createdAt),
            "edited": item.post.updatedAt != nil,
            "photos": photos,
            "hasPhotos": !photos.isEmpty,
            "photoCount": min(photos.count, 4),
            "likeCount": localizer.number(item.post.likeCount, language),
            "commentCount": localizer.number(item.post.commentCount, language),
            "liked": item.likedByViewer,
            "bookmarked": item.bookmarkedByViewer,
            "isAuthor": context.user?.id == item.author.id,
            "hidden": item.post.hiddenAt != nil,
            "locked": item.post.commentsLocked,
            "returnTo": context.request.target + "#post-\(id)",
        ]
    }

    /// A page of posts with its "Older posts" link.
    func feedView(_ page: FeedPage, path: String, _ context: RequestContext) -> [String: Any] {
        [
            "posts": page.items.map { postView($0, context) },
            "hasPosts": !page.items.isEmpty,
            "olderURL": Paths.older(path, before: page.nextCursor) as Any,
        ]
    }

    /// The `?before=` cursor of a feed request; garbage is a 400, not a silent first page.
    func cursor(_ context: RequestContext) throws -> Int64? {
        guard let text = context.form["before"] else { return nil }
        guard let value = Checked.id(text) else { throw HTTPError(.badRequest) }
        return value
    }
}
