import Foundation
import HTTP
import Storage

/// "My meetups": one page for what a member is hosting, going to, waiting for, and went to.
struct MyMeetupsView: PageView {
    static let template = "my-meetups"
    let sections: [MyMeetupsSection]
    var hasAny: Bool { sections.contains { !$0.cards.isEmpty } }
}

struct MyMeetupsSection {
    let id: String
    let title: String
    let cards: [MeetupCardHTML]
    var hasCards: Bool { !cards.isEmpty }
}

extension App {
    /// `GET /meetups/mine`
    func myMeetupsShow(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let language = context.language
        let now = Date()
        try settleMeetups(now: now)
        let mine = try database.meetups.myMeetups(userID: user.storedID, now: now)
        let text = { (key: TextKey) in self.localizer.text(key, language) }
        func cards(_ meetups: [Meetup], notes: [Int64: String] = [:]) throws -> [MeetupCardHTML] {
            try meetupCardsHTML(meetups.map(MeetupStamp.init), language, rows: meetups, notes: notes, now: now)
        }
        let waitlistNotes = Dictionary(mine.waitlisted.map { ($0.meetup.id ?? 0, localizer.text(.meetups.mine.waitlist_place, language, ["place": String($0.place)])) },
                                       uniquingKeysWith: { first, _ in first })
        let pastNotes = Dictionary(mine.past.map { past -> (Int64, String) in
            let note: String = switch past.part {
            case .hosted: text(.meetups.mine.hosted)
            case .went(attended: true): text(.meetups.mine.went)
            case .went(attended: false): text(.meetups.mine.no_show)
            case .went(attended: nil): text(.meetups.mine.not_recorded)
            }
            return (past.meetup.id ?? 0, past.meetup.isCancelled ? text(.meetups.cancelled.title) : note)
        }, uniquingKeysWith: { first, _ in first })
        let view = MyMeetupsView(sections: [
            MyMeetupsSection(id: "hosting", title: text(.meetups.mine.hosting), cards: try cards(mine.hosting)),
            MyMeetupsSection(id: "going", title: text(.meetups.mine.going), cards: try cards(mine.going)),
            MyMeetupsSection(id: "waitlisted", title: text(.meetups.mine.waitlisted), cards: try cards(mine.waitlisted.map(\.meetup), notes: waitlistNotes)),
            MyMeetupsSection(id: "waiting", title: text(.meetups.mine.waiting), cards: try cards(mine.waiting)),
            MyMeetupsSection(id: "past", title: text(.meetups.mine.past), cards: try cards(mine.past.map(\.meetup), notes: pastNotes)),
        ])
        return page(view, context, title: text(.meetups.mine.title), section: .meetups)
    }
}
