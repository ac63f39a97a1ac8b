import Foundation

/// One member's meetups, as their "My meetups" page sorts them.
public struct MyMeetups: Sendable, Equatable {
    /// Upcoming (or under way), soonest first.
    public var hosting: [Meetup] = []
    public var going: [Meetup] = []
    public var waitlisted: [WaitlistedMeetup] = []
    /// Waiting for the host's answer, or for the lottery's draw.
    public var waiting: [Meetup] = []
    /// Ended, latest first: hosted, or gone to with what the host recorded.
    public var past: [PastMeetup] = []
}

/// A meetup the member waits for a place at, and their place on its waitlist (1-based, in
/// their pace group), as the meetup's page says.
public struct WaitlistedMeetup: Sendable, Equatable {
    public var meetup: Meetup
    public var place: Int
}

/// A meetup that ended, and the member's part in it.
public struct PastMeetup: Sendable, Equatable {
    public enum Part: Sendable, Equatable {
        case hosted
        /// `attended`: what the host or the check-in recorded; nil when nothing was.
        case went(attended: Bool?)
    }

    public var meetup: Meetup
    public var part: Part
}

extension MeetupStore {
    /// How many ended meetups "My meetups" shows.
    public static let pastShown = 30

    /// The member's meetups: hosting, going, waitlisted, waiting for an answer, and the latest
    /// that ended. A meetup under way still counts as upcoming; one moderators hid shows only
    /// to its host.
    public func myMeetups(userID: Int64, now: Date = Date()) throws -> MyMeetups {
        // A meetup lasts at most a day (the form's limit): anything that started earlier has ended.
        let horizon = now.addingTimeInterval(-86_400)
        return try database.readRows { db in
            var mine = MyMeetups()
            let hosted = try db.records(Meetup.self, """
                SELECT \(Meetup.selection.bare) FROM meetups WHERE hostID = ? AND startsAt >= ? ORDER BY startsAt, id LIMIT 200
                """, [userID, horizon])
            mine.hosting = hosted.filter { $0.endsAt > now }
            let applied = try db.fetchAll("""
                SELECT \(Meetup.selection.qualified), a.status AS applicationStatus,
                    (SELECT count(*) FROM meetupApplications w WHERE w.meetupID = a.meetupID AND w.status = 'waitlisted'
                        AND w.groupID IS NOT DISTINCT FROM a.groupID
                        AND (w.queuedAt < a.queuedAt OR (w.queuedAt = a.queuedAt AND w.id < a.id))) AS ahead
                FROM meetupApplications a JOIN meetups ON meetups.id = a.meetupID
                WHERE a.userID = ? AND a.status IN ('accepted', 'pending', 'waitlisted') AND meetups.startsAt >= ? AND meetups.hiddenAt IS NULL
                ORDER BY meetups.startsAt, meetups.id LIMIT 200
                """, [userID, horizon]) { row in
                (try Meetup(row: row, startingAt: 0), ApplicationStatus(rawValue: try row.decode("applicationStatus")) ?? .pending,
                 try row.decode("ahead") as Int)
            }
            for (meetup, status, ahead) in applied where meetup.endsAt > now {
                switch status {
                case .accepted: mine.going.append(meetup)
                case .waitlisted: mine.waitlisted.append(WaitlistedMeetup(meetup: meetup, place: ahead + 1))
                default: mine.waiting.append(meetup)
                }
            }
            let pastHosted = try db.records(Meetup.self, """
                SELECT \(Meetup.selection.bare) FROM meetups WHERE hostID = ? AND startsAt < ? ORDER BY startsAt DESC, id DESC LIMIT ?
                """, [userID, now, Self.pastShown])
            let pastGone = try db.fetchAll("""
                SELECT \(Meetup.selection.qualified), a.attended AS applicationAttended
                FROM meetupApplications a JOIN meetups ON meetups.id = a.meetupID
                WHERE a.userID = ? AND a.status = 'accepted' AND meetups.startsAt < ? AND meetups.hiddenAt IS NULL
                ORDER BY meetups.startsAt DESC, meetups.id DESC LIMIT ?
                """, [userID, now, Self.pastShown]) { row in
                PastMeetup(meetup: try Meetup(row: row, startingAt: 0), part: .went(attended: try row.decode("applicationAttended")))
            }
            mine.past = (pastHosted.map { PastMeetup(meetup: $0, part: .hosted) } + pastGone)
                .filter { $0.meetup.endsAt <= now }
                .sorted { ($0.meetup.startsAt, $0.meetup.id ?? 0) > ($1.meetup.startsAt, $1.meetup.id ?? 0) }
                .prefix(Self.pastShown).map { $0 }
            return mine
        }
    }
}
