import Foundation
import HTTP
import Storage

extension App {
    /// Wraps every `/admin` handler: moderators and admins only. Anyone else gets a plain
    /// 404, so the area does not reveal that it exists, and nothing runs.
    func staffPage(_ handler: @escaping @Sendable (RequestContext, User) throws -> HTTPResponse) -> HTTPRouter.Handler {
        page { context in
            guard let user = context.user, user.isStaff else { throw HTTPError(.notFound) }
            return try handler(context, user)
        }
    }
}
