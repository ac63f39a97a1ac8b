import Foundation
import HTTP
import Storage

/// What the post card template shows for one post.
struct PostCardView {
    let id: Int64
    let url: String
    let author: UserView
    let bodyHTML: String
    /// A search hit's excerpt with the match marked, shown instead of the body.
    var excerptHTML: String?
    let posted: Moment
    let edited: Bool
    let photos: [PhotoView]
    var hasPhotos: Bool { !photos.isEmpty }
    var photoCount: Int { min(photos.count, 4) }
    let likeCount: String
    let commentCount: String
    let liked: Bool
    let bookmarked: Bool
    let isAuthor: Bool
    let hidden: Bool
    let locked: Bool
    let returnTo: String
}

struct PhotoView {
    let url: String
    let width: Int
    let height: Int
    let alt: String
    let sources: ImageSources
    /// Paints the photo's mean colour behind it while it loads.
    let toneClass: String
    /// How wide it is shown: the whole column, or its share of the grid of several.
    let sizes: String
    /// `eager` for the photos of the first post, which the first screen shows.
    let loading: String

    /// The column is 40rem (640 px) wide on a desktop and the whole screen on a phone.
    static func sizes(photoCount count: Int, index: Int) -> String {
        switch count {
        case 2, 4: "(max-width: 672px) 50vw, 320px"
        case 3: index == 0 ? "(max-width: 672px) 67vw, 427px" : "(max-width: 672px) 33vw, 213px"
        default: "(max-width: 672px) 100vw, 640px"
        }
    }
}

/// A page of post cards with its "Older posts" link.
struct FeedView {
    let posts: [PostCardView]
    var hasPosts: Bool { !posts.isEmpty }
    let olderURL: String?
}

extension App {
    func postCard(_ item: FeedItem, _ context: RequestContext, first: Bool = false) -> PostCardView {
        let language = context.language
        let id = item.post.id ?? 0
        return PostCardView(
            id: id,
            url: Paths.post(id),
            author: UserView(item.author),
            bodyHTML: item.post.bodyHTML,
            posted: localizer.moment(item.post.createdAt, language),
            edited: item.post.updatedAt != nil,
            photos: item.photos.enumerated().map { index, photo in
                PhotoView(url: Paths.media(photo.fileName), width: photo.width, height: photo.height,
                          alt: localizer.text("posts.photo_alt", language, ["number": String(index + 1), "name": item.author.displayName]),
                          sources: ImageSources(fileName: photo.fileName, width: photo.width), toneClass: ImageSources.toneClass(photo.tone),
                          sizes: PhotoView.sizes(photoCount: item.photos.count, index: index), loading: first ? "eager" : "lazy")
            },
            likeCount: localizer.number(item.post.likeCount, language),
            commentCount: localizer.number(item.post.commentCount, language),
            liked: item.likedByViewer,
            bookmarked: item.bookmarkedByViewer,
            isAuthor: context.user?.id == item.author.id,
            hidden: item.post.hiddenAt != nil,
            locked: item.post.commentsLocked,
            returnTo: context.request.target + "#post-\(id)"
        )
    }

    func feed(_ page: FeedPage, path: String, _ context: RequestContext) -> FeedView {
        FeedView(posts: page.items.enumerated().map { postCard($1, context, first: $0 == 0) }, olderURL: Paths.older(path, before: page.nextCursor))
    }

    /// The `?before=` cursor of a feed request; garbage is a 400, not a silent first page.
    func cursor(_ context: RequestContext) throws -> Int64? {
        guard let text = context.form["before"] else { return nil }
        guard let value = Checked.id(text) else { throw HTTPError(.badRequest) }
        return value
    }
}
