import Formats
import HTTP
import Storage

/// `POST /posts/:id/{like,unlike,bookmark,unbookmark}`: each idempotent, each back to where
/// the button was pressed.
extension App {
    func postLike(_ context: RequestContext) throws -> HTTPResponse {
        try react(context) { try database.posts.like(postID: $0, userID: $1) }
    }

    func postUnlike(_ context: RequestContext) throws -> HTTPResponse {
        try react(context) { try database.posts.unlike(postID: $0, userID: $1) }
    }

    func postBookmark(_ context: RequestContext) throws -> HTTPResponse {
        try react(context) { try database.posts.bookmark(postID: $0, userID: $1) }
    }

    func postUnbookmark(_ context: RequestContext) throws -> HTTPResponse {
        try react(context) { try database.posts.unbookmark(postID: $0, userID: $1) }
    }

    private func react(_ context: RequestContext, _ action: (Int64, Int64) throws -> Void) throws -> HTTPResponse {
        let user = try context.requireUser()
        guard let id = context.request.parameters["id"].flatMap(Checked.id) else { throw HTTPError(.notFound) }
        do {
            try action(id, try user.storedID)
        } catch StorageError.notFound {
            throw HTTPError(.notFound)
        }
        return .redirect(to: Paths.local(context.form["return_to"] ?? Paths.post(id)))
    }
}
