import Foundation

/// What a member may have pushed to their devices: the same choices as mail, and the talk of
/// meetups they go to.
public enum PushKind: String, Sendable, CaseIterable {
    /// A host or crew accepted or declined you; a lottery's result.
    case decisions
    /// A meetup you go to moved or was cancelled.
    case moved
    /// A place came free from the waitlist.
    case waitlist
    /// Re-confirm your place after a move.
    case confirm
    /// New messages in the talk of meetups you go to.
    case talk
    /// Replies, comments and mentions.
    case replies
    /// New followers.
    case follows
    /// Applications to your meetups and requests to your crews, for their hosts and staff.
    case requests
    /// Notices and new meetups from your crews.
    case notices
    /// A meetup you go to, the day before and an hour before.
    case reminders

    /// The kind a notification is pushed as.
    public init(_ kind: Notification.Kind) {
        switch kind {
        case .meetupAccepted, .meetupRejected, .crewAccepted, .crewRejected, .meetupLotteryWon, .meetupLotteryLost: self = .decisions
        case .meetupChanged, .meetupCancelled: self = .moved
        case .meetupPromoted: self = .waitlist
        case .meetupConfirm, .meetupUnconfirmed: self = .confirm
        case .comment, .reply, .mention: self = .replies
        case .follow: self = .follows
        case .crewRequest, .meetupApplied: self = .requests
        case .crewNotice, .crewMeetup: self = .notices
        case .meetupTomorrow, .meetupSoon: self = .reminders
        }
    }
}

/// A browser a member turned notifications on in.
public struct PushDevice: Sendable, Equatable {
    public var id: Int64
    public var name: String
    public var createdAt: Date
    public var lastUsedAt: Date?
    /// Turned on in the session asking.
    public var isCurrent: Bool
}

/// One push waiting to go: to which browser, about what.
public struct PushDelivery: Sendable {
    public var id: Int64
    public var subscriptionID: Int64
    public var userID: Int64
    public var endpoint: String
    public var p256dh: [UInt8]
    public var auth: [UInt8]
    public var notificationID: Int64?
    public var messageID: Int64?
    public var attempts: Int
}

/// A room's message as a push shows it: who, where, what.
public struct MessageNews: Sendable {
    public var roomID: Int64
    public var kind: Room.Kind
    /// The crew of a crew's room, a topic room's name, a group's name.
    public var place: String?
    public var author: User
    public var body: String
}

