import CompiledHTML
import Formats
import Foundation
import HTTP
import Storage

/// What the post card template shows for one post: the parts every reader sees alike come
/// rendered (`FragmentCache`), the rest is this reader's.
struct PostCardView {
    let id: Int64
    let url: String
    /// From `<article>` to the `<time>` of posting (`PostBylineView`), kept per post.
    let byline: HTMLFragment
    /// "3 min ago", or the date after a week.
    let postedText: String
    /// The body (or a search hit's excerpt) and photos (`PostContentView`).
    let content: HTMLFragment
    let likeCount: String
    let commentCount: String
    let liked: Bool
    let bookmarked: Bool
    let isAuthor: Bool
    let locked: Bool
    /// The page the card is on; its forms come back to the card (`#post-ID`).
    let returnTo: String
}

/// A post card's avatar, author and link, up to the time it was posted.
struct PostBylineView {
    static let template = "post-card-byline"
    let id: Int64
    let url: String
    let author: UserView
    /// RFC 3339, for `datetime`.
    let iso: String
    /// "Nov 22, 2026 at 3:04 PM", on hover.
    let exact: String
}

/// A post card's body (or a search hit's excerpt with the match marked) and photos.
struct PostContentView {
    static let template = "post-card-content"
    let edited: Bool
    let hidden: Bool
    let excerptHTML: String?
    let bodyHTML: String
    let photos: [PhotoView]
    var hasPhotos: Bool { !photos.isEmpty }
    var photoCount: Int { min(photos.count, 4) }
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
        let (share, desktop) = switch count {
        case 2, 4: (50, 320)
        case 3: index == 0 ? (67, 427) : (33, 213)
        default: (100, 640)
        }
        return ImageSources.sizes(phoneShare: share, below: 672, desktop: desktop)
    }
}

/// A page of post cards with its "Older posts" link.
struct FeedView {
    let posts: [PostCardView]
    var hasPosts: Bool { !posts.isEmpty }
    let olderURL: String?
}

extension App {
    /// A post's card; `excerptHTML` (a search hit's) replaces the body and is never kept. `now`
    /// is read once for a page of cards.
    func postCard(_ item: FeedItem, _ context: RequestContext, first: Bool = false, excerptHTML: String? = nil, now: Date = Date()) -> PostCardView {
        let language = context.language
        let id = item.post.id ?? 0
        let url = Paths.post(id)
        var fragments = postCards.fragments(.init(id: id, language: language.templateIndex, variant: first ? 1 : 0), item.revision) {
            self.postCardFragments(item, url: url, language: language, eager: first)
        }
        if let excerptHTML {
            // A search hit: its byline as kept for its card anywhere, its excerpt rendered now.
            var writer = HTMLWriter(language, capacity: 512)
            postContentView(item, language: language, eager: first, excerptHTML: excerptHTML).render(into: &writer)
            fragments = .init(byline: fragments.byline, content: HTMLFragment(writer))
        }
        return PostCardView(
            id: id,
            url: url,
            byline: fragments.byline,
            postedText: localizer.momentText(item.post.createdAt, language, now: now),
            content: fragments.content,
            likeCount: localizer.number(item.post.likeCount, language),
            commentCount: localizer.number(item.post.commentCount, language),
            liked: item.likedByViewer,
            bookmarked: item.bookmarkedByViewer,
            isAuthor: context.user?.id == item.author.id,
            locked: item.post.commentsLocked,
            returnTo: context.request.target
        )
    }

    private func postCardFragments(_ item: FeedItem, url: String, language: Language, eager: Bool) -> FragmentCache<Int64>.Fragments {
        .init(
            byline: PostBylineView(
                id: item.post.id ?? 0, url: url, author: UserView(item.author),
                iso: InternetDate.format(item.post.createdAt), exact: localizer.dateTime(item.post.createdAt, language)),
            content: postContentView(item, language: language, eager: eager, excerptHTML: nil),
            language: language, size: item.post.bodyHTML.utf8.count)
    }

    /// A card's text and photos; `excerptHTML` (a search hit's) stands for the text.
    private func postContentView(_ item: FeedItem, language: Language, eager: Bool, excerptHTML: String?) -> PostContentView {
        PostContentView(
            edited: item.post.updatedAt != nil,
            hidden: item.post.hiddenAt != nil,
            excerptHTML: excerptHTML,
            bodyHTML: item.post.bodyHTML,
            photos: item.photos.enumerated().map { index, photo in
                PhotoView(url: Paths.media(photo.fileName), width: photo.width, height: photo.height,
                          alt: localizer.text(.posts.photo_alt, language, ["number": String(index + 1), "name": item.author.displayName]),
                          sources: ImageSources(fileName: photo.fileName, width: photo.width, jpegWidths: photo.jpegWidths), toneClass: ImageSources.toneClass(photo.tone),
                          sizes: PhotoView.sizes(photoCount: item.photos.count, index: index), loading: eager ? "eager" : "lazy")
            })
    }

    func feed(_ page: FeedPage, path: String, _ context: RequestContext) -> FeedView {
        let now = Date()
        // By index, so that each item is lent to its card rather than copied.
        return FeedView(posts: page.items.indices.map { postCard(page.items[$0], context, first: $0 == 0, now: now) },
                        olderURL: Paths.older(path, before: page.nextCursor))
    }

    /// The `?before=` cursor of a feed request; garbage is a 400, not a silent first page.
    func cursor(_ context: RequestContext) throws -> Int64? {
        guard let text = context.form["before"] else { return nil }
        guard let value = Checked.id(text) else { throw HTTPError(.badRequest) }
        return value
    }
}
