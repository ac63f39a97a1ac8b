import Formats
import Foundation
import HTTP
import Storage

/// A crew's pinned notice as its pages show it; for staff, how many have read it.
struct CrewNoticeView {
    let bodyHTML: String
    let author: UserView
    let posted: Moment
    /// "Read by 14 of 32", for staff.
    let readBy: String?
    let readersURL: String?
    let unpinURL: String?
}

/// Who has read a notice and who has not, for the crew's staff.
struct NoticeReadersView: PageView {
    static let template = "crew-notice"
    let crewName: String
    let crewURL: String
    let notice: CrewNoticeView
    let unread: [UserView]
    var hasUnread: Bool { !unread.isEmpty }
    let read: [UserView]
}

extension App {
    /// The crew's pinned notice for a member's page, counted as read by them; nil for anyone
    /// not a member, or when there is none.
    func crewNotice(_ crew: Crew, role: CrewRole?, viewerID: Int64?, _ language: Language) throws -> CrewNoticeView? {
        guard role?.isMember == true, let viewerID, let (notice, author) = try database.crews.pinnedNotice(crewID: crew.storedID) else { return nil }
        let id = try notice.storedID
        try database.crews.markNoticeRead(noticeID: id, userID: viewerID)
        let staff = role?.isStaff == true
        let readers = staff ? try database.crews.noticeReaders(noticeID: id) : nil
        return CrewNoticeView(
            bodyHTML: notice.bodyHTML, author: UserView(author), posted: localizer.moment(notice.createdAt, language),
            readBy: readers.map { localizer.text(.notices.read_by, language, ["read": String($0.read.count), "total": String($0.read.count + $0.unread.count)]) },
            readersURL: staff ? Paths.crewNotice(crew.slug, id) : nil,
            unpinURL: staff ? Paths.crewNotice(crew.slug, id) + "/unpin" : nil)
    }

    /// `POST /crews/:slug/notices`: staff post a notice to every member.
    func crewNoticeCreate(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        try requireCanPost(user, .posts, context)
        let crew = try crew(context)
        let body = try shortText(context, maximum: 2000, message: .notices.length)
        do {
            _ = try database.crews.postNotice(crewID: crew.storedID, by: user.storedID, body: body, bodyHTML: try messageContent(body).bodyHTML)
        } catch StorageError.forbidden {
            throw HTTPError(.forbidden)
        }
        return redirect(to: Paths.crew(crew.slug) + "#notice")
    }

    /// `GET /crews/:slug/notices/:id`: who has read it, for the crew's staff.
    func crewNoticeReaders(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let crew = try crew(context)
        guard try database.crews.crewRole(crewID: crew.storedID, userID: user.storedID)?.isStaff == true,
              let id = context.request.parameters["id"].flatMap({ Checked.id($0) }), let notice = try database.crews.notice(id: id),
              notice.crewID == crew.id, let author = try database.accounts.user(id: notice.authorID) else { throw HTTPError(.notFound) }
        let readers = try database.crews.noticeReaders(noticeID: id)
        let language = context.language
        let view = NoticeReadersView(
            crewName: crew.name, crewURL: Paths.crew(crew.slug),
            notice: CrewNoticeView(bodyHTML: notice.bodyHTML, author: UserView(author), posted: localizer.moment(notice.createdAt, language),
                                   readBy: localizer.text(.notices.read_by, language, ["read": String(readers.read.count),
                                                                                          "total": String(readers.read.count + readers.unread.count)]),
                                   readersURL: nil, unpinURL: notice.unpinnedAt == nil ? Paths.crewNotice(crew.slug, id) + "/unpin" : nil),
            unread: readers.unread.map(UserView.init), read: readers.read.map(UserView.init))
        return page(view, context, title: localizer.text(.notices.readers_title, language), section: .crews)
    }

    /// `POST /crews/:slug/notifications`: a member silences the crew's notices and new
    /// meetups (`on=0`), or lets them notify again (`on=1`).
    func crewNotifications(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let crew = try crew(context)
        guard let on = context.form["on"].flatMap({ ["0": false, "1": true][$0] }) else { throw HTTPError(.badRequest) }
        try storageAction(context) { try database.crews.setNotifies(on, crewID: crew.storedID, userID: user.storedID) }
        return redirect(to: Paths.crew(crew.slug))
    }

    /// `POST /crews/:slug/notices/:id/unpin`
    func crewNoticeUnpin(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let crew = try crew(context)
        guard let id = context.request.parameters["id"].flatMap({ Checked.id($0) }), let notice = try database.crews.notice(id: id),
              notice.crewID == crew.id else { throw HTTPError(.notFound) }
        do {
            try database.crews.unpinNotice(id: id, by: user.storedID)
        } catch StorageError.forbidden {
            throw HTTPError(.forbidden)
        }
        return redirect(to: Paths.crew(crew.slug))
    }
}
