import Foundation
import Network
import Storage

extension App {
    /// Delivers what is due in a thread of its own until the process ends: at start, when
    /// something is queued, and every few seconds. One server at a time sends.
    public func startPushing() {
        guard let pushSender else { return }
        Thread.detachNewThread { [self] in
            while true {
                do {
                    // A full pass means more is due: go on at once.
                    if try runPush().handled >= PushSender.batch { continue }
                } catch {
                    log("push pass failed: \(error)")
                }
                pushSender.waitForWork()
            }
        }
    }

    /// One pass of the push queue: the sender thread's, and the tests'.
    ///
    /// Not inlined (nor is what it calls), for the reason `runMail` is not: inlined into the
    /// sender's endless loop, such bodies keep the optimizer busy for many minutes.
    @inline(never)
    @discardableResult
    func runPush(now: Date = Date()) throws -> PushSender.Delivery {
        guard let pushSender else { return PushSender.Delivery() }
        var tally = PushSender.Delivery()
        try database.asLeader(of: "push") {
            tally = try pushSender.deliverDue(now: now) { delivery in self.pushMessage(delivery, now: now) }
        }
        return tally
    }

    /// What a queued push says, in its member's language, and how the push service treats it;
    /// nil when there is nothing to say any more (the member was silenced, left the meetup, the
    /// notification went).
    @inline(never)
    func pushMessage(_ delivery: PushDelivery, now: Date) -> PushMessage? {
        guard let user = try? database.accounts.user(id: delivery.userID), !user.isSuspended(at: now), !user.isSilenced(at: now) else {
            return nil
        }
        let language = mailLanguage(user)
        if let id = delivery.messageID {
            guard let news = try? database.push.messageNews(id: id, for: delivery.userID) else { return nil }
            // Who and where, then what: "민지 · 한강러너스: 내일 7시 맞죠?"; a newer message of the
            // same room replaces the older on the lock screen (one topic a room).
            let who = news.author.displayName + (news.place.map { " · " + $0 } ?? "")
            return message(title: configuration.siteName, body: who + ": " + news.body.clipped(180), url: Paths.talkRoom(news.roomID),
                           ttl: 3_600, urgency: news.kind == .direct ? .high : .normal, topic: "room-\(news.roomID)")
        }
        guard let id = delivery.notificationID, let item = try? database.push.notificationItem(id: id, userID: delivery.userID) else { return nil }
        let line = describe([item], language)
        let kind = PushKind(item.notification.kind)
        let urgent: Set<PushKind> = [.decisions, .moved, .waitlist, .confirm]
        // The second line says what it is about: the comment, or the meetup.
        let about = line.preview ?? (item.notification.kind.isReminder ? nil : item.meetupTitle)
        return message(title: configuration.siteName, body: line.sentence + (about.map { "\n" + $0 } ?? ""), url: line.url,
                       ttl: urgent.contains(kind) ? 86_400 : 6 * 3_600, urgency: urgent.contains(kind) ? .high : .low, topic: nil)
    }

    private func message(title: String, body: String, url: String, ttl: Int, urgency: PushMessage.Urgency, topic: String?) -> PushMessage {
        // The service worker shows it: title, body, and the page a tap opens.
        let json = "{\"title\":\(Self.jsonString(title)),\"body\":\(Self.jsonString(body)),\"url\":\(Self.jsonString(url))"
            + (topic.map { ",\"tag\":\(Self.jsonString($0))" } ?? "") + "}"
        // Bodies are clipped well below what one encrypted record holds (3,993 bytes).
        return PushMessage(payload: Array(json.utf8), timeToLive: ttl, urgency: urgency, topic: topic)
    }

    static func jsonString(_ text: String) -> String {
        (try? String(decoding: JSONEncoder().encode(text), as: UTF8.self)) ?? "\"\""
    }
}
