import Foundation
import Storage

/// The inbox: every room and conversation, newest message first, or the requests waiting.
struct InboxView: PageView {
    static let template = "talk"
    let entries: [InboxEntryView]
    var hasEntries: Bool { !entries.isEmpty }
    let showingRequests: Bool
    /// Requests waiting, when there are any.
    let requestCount: Int?
    let olderURL: String?
}

struct InboxEntryView {
    let url: String
    let title: String
    var initial: String { String(title.first ?? "?").uppercased() }
    /// The crew a room belongs to.
    let crew: String?
    /// "Mina: see you at 7", or nothing for a room nobody has written in yet.
    let preview: String?
    let when: Moment
    /// "3", "99+", or nothing when all is read.
    let unread: String?
    let muted: Bool
}

/// A room: its messages, oldest first, and the form to write in it.
struct RoomPageView: PageView {
    static let template = "talk-room"
    let title: String
    /// What the room belongs to, linked: a topic room's crew, a meetup's talk's meetup.
    let belongsTo: String?
    let belongsToURL: String?
    /// A crew room's pinned notice.
    let notice: CrewNoticeView?
    let url: String
    var cancelReplyURL: String { url + "#write" }
    let members: [UserView]
    var memberCount: Int { members.count }
    let messages: [MessageView]
    var hasMessages: Bool { !messages.isEmpty }
    let olderURL: String?
    let newerURL: String?
    /// A first message from someone the member does not know: accept to answer, or decline.
    let isRequest: Bool
    let canSend: Bool
    let archived: Bool
    let replyTo: MessageQuoteView?
    /// What was typed, kept after an error, and the error.
    let body: String
    let error: String?
    /// "Muted until 19:40", "Muted", or nothing.
    let muted: String?
    let canLeave: Bool
    let canArchive: Bool
    /// Where to share a place, when the site has map tiles.
    let placeURL: String?
    /// The event stream that brings new messages while the page is open, from the last one
    /// shown; nil on an older page.
    let liveURL: String?
}

struct MessageView {
    let id: Int64
    let author: UserView
    let bodyHTML: String
    let photos: [PhotoView]
    var photoCount: Int { photos.count }
    /// A place picked on the map: its name, linked to its map.
    let place: String?
    let placeURL: String
    var hasPhotos: Bool { !photos.isEmpty }
    let posted: Moment
    let edited: Bool
    let deleted: Bool
    let replyTo: MessageQuoteView?
    /// The first message the member had not read when the page opened.
    let firstUnread: Bool
    /// Written by the member reading.
    let isMine: Bool
    let replyURL: String
    let editURL: String?
    let deleteURL: String?
    /// Someone else's message, to report.
    let reportURL: String?
}

extension MessageView {
    /// A message as `viewerID` sees it in a room: their own with its edit and delete, staff
    /// of a crew's rooms (`staffMayDelete`) with delete on everyone's.
    init(_ item: MessageItem, roomID: Int64, viewerID: Int64, staffMayDelete: Bool, firstUnread: Bool, posted: Moment, now: Date,
         photoAlt: (Int) -> String) {
        let message = item.message, id = message.id ?? 0, url = Paths.talkRoom(roomID)
        let deleted = message.deletedAt != nil
        self.init(
            id: id, author: UserView(item.author), bodyHTML: message.bodyHTML,
            photos: item.photos.enumerated().map { index, photo in
                PhotoView(url: Paths.media(photo.fileName), width: photo.width, height: photo.height, alt: photoAlt(index + 1),
                          sources: ImageSources(fileName: photo.fileName, width: photo.width, jpegWidths: photo.jpegWidths),
                          toneClass: ImageSources.toneClass(photo.tone), sizes: MessageView.photoSizes(count: item.photos.count), loading: "lazy")
            },
            place: message.placeName, placeURL: Paths.talkMessage(id) + "/place",
            posted: posted,
            edited: message.editedAt != nil && !deleted, deleted: deleted,
            replyTo: item.replyTo.map { MessageQuoteView(id: $0.id, url: url + "#message-\($0.id)", author: $0.authorName, text: String($0.body.prefix(120))) },
            firstUnread: firstUnread, isMine: message.authorID == viewerID, replyURL: url + "?reply=\(id)#write",
            editURL: message.isEditable(by: viewerID, at: now) ? Paths.talkMessage(id) + "/edit" : nil,
            deleteURL: !deleted && (message.authorID == viewerID || staffMayDelete) ? Paths.talkMessage(id) + "/delete" : nil,
            reportURL: deleted || message.authorID == viewerID ? nil
                : Paths.reportNew(.message, id, returnTo: url + "?before=\(id + 1)#message-\(id)"))
    }
}

extension MessageView {
    /// A message's photos sit in a column of at most 32rem (512 px), one across or two.
    static func photoSizes(count: Int) -> String {
        count == 1 ? ImageSources.sizes(phoneShare: 85, below: 672, desktop: 512) : ImageSources.sizes(phoneShare: 43, below: 672, desktop: 256)
    }
}

/// One message alone, as the live updates send it (`talk-message`, the room page's own), in
/// the listener's language. Its form token is left empty: the page's script puts in its own.
struct LiveMessageView: FragmentView {
    static let template = "talk-message-live"
    let message: MessageView
    let csrf: String
}

struct MessageQuoteView {
    let id: Int64
    let url: String
    let author: String
    /// The start of the text; empty for a deleted message.
    let text: String
}

/// Editing one's message within its window.
struct MessageEditView: PageView {
    static let template = "talk-edit"
    let action: String
    let cancelURL: String
    let body: String
    let error: String?
}

/// Starting a group: who, and an optional name.
struct GroupFormView: PageView {
    static let template = "talk-new"
    let usernames: String
    let name: String
    let error: String?
}
