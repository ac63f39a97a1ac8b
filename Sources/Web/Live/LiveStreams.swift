import CompiledHTML
import Foundation
import HTTP
import Storage
import Synchronization

/// The open event streams (`GET /events`) and what each one shows: sends each stream what a
/// committed write changed for it, checking every time that its member may still see it.
///
/// Writes name what they change (`Change`); the database tells this hub once they commit (in
/// memory, or from any server through PostgreSQL's `NOTIFY`). One thread of its own then reads
/// what is new once per page and writes it to each stream, so a talk message costs the same
/// few statements whether ten or a thousand people have the meetup open. Missed messages come
/// from the database by their ids (`Last-Event-ID`), never from memory.
final class LiveStreams: Sendable {
    /// Streams one member may hold at once (tabs, a phone and a laptop).
    static let perMember = 8
    /// Seconds between heartbeats (a comment line proxies see as traffic) and between checks
    /// of what time alone changes (check-in opening, a session running out).
    static let heartbeat: Double = 15

    /// The page a stream was opened from, whose thread and state it follows.
    enum Page: Hashable, Sendable {
        case meetup(Int64)
        case crew(Int64)
        case room(Int64)
    }

    /// One open stream.
    struct Listener: Sendable {
        let stream: HTTPStream
        let userID: Int64
        let sessionID: Int64
        let language: Language
        let page: Page?
        /// The last message of the page's thread this stream has had (its events' `id`).
        var cursor: Int64
        /// What it was last sent, to send again only what differs.
        var bell: Int?
        var messagesWaiting: Int?
        var meetup: MeetupLiveState?
    }

    private struct State {
        var listeners: [Int: Listener] = [:]
        var byUser: [Int64: Set<Int>] = [:]
        var byPage: [Page: Set<Int>] = [:]
        var nextID = 1
        var pending: Set<Change> = []
        /// Streams just added, to catch up on the hub's thread (the only one that sends).
        var newcomers: Set<Int> = []
        var started = false
    }

    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)
    private let database: AppDatabase
    private let lifetime: SessionLifetime
    /// Makes the events' text (a meetup's state, a message's time) in the listener's language.
    private let render: LiveRendering

    init(database: AppDatabase, lifetime: SessionLifetime, render: LiveRendering) {
        self.database = database
        self.lifetime = lifetime
        self.render = render
    }

    var count: Int { state.withLock { $0.listeners.count } }

    func count(userID: Int64) -> Int { state.withLock { $0.byUser[userID]?.count ?? 0 } }

    /// Adds a stream and sends it what it needs to catch up: its member's unread count, the
    /// page's state, and the messages after `cursor`. False when the member holds too many.
    func add(_ listener: Listener) -> Bool {
        startIfNeeded()
        let added: Int? = state.withLock { state in
            guard state.byUser[listener.userID, default: []].count < Self.perMember else { return nil }
            let id = state.nextID
            state.nextID += 1
            state.listeners[id] = listener
            state.byUser[listener.userID, default: []].insert(id)
            if let page = listener.page { state.byPage[page, default: []].insert(id) }
            state.newcomers.insert(id)
            return id
        }
        guard let id = added else { return false }
        listener.stream.onClose { [weak self] in self?.remove(id) }
        wake.signal()
        return true
    }

    private func remove(_ id: Int) {
        state.withLock { state in
            guard let listener = state.listeners.removeValue(forKey: id) else { return }
            state.byUser[listener.userID]?.remove(id)
            if state.byUser[listener.userID]?.isEmpty == true { state.byUser[listener.userID] = nil }
            if let page = listener.page {
                state.byPage[page]?.remove(id)
                if state.byPage[page]?.isEmpty == true { state.byPage[page] = nil }
            }
        }
    }

    /// Told by the database (on its thread): queues the changes for the hub's thread.
    private func changed(_ changes: Set<Change>) {
        state.withLock { $0.pending.formUnion(changes) }
        wake.signal()
    }

    private func startIfNeeded() {
        let start = state.withLock { state in
            defer { state.started = true }
            return !state.started
        }
        guard start else { return }
        database.listen { [weak self] changes in self?.changed(changes) }
        let thread = Thread { [weak self] in self?.run() }
        thread.name = "moim-live"
        thread.start()
    }

    private func run() {
        var lastBeat = Date()
        while true {
            _ = wake.wait(timeout: .now() + Self.heartbeat)
            let (changes, newcomers) = state.withLock { state in
                defer { (state.pending, state.newcomers) = ([], []) }
                return (state.pending, state.newcomers)
            }
            if !changes.isEmpty { apply(changes) }
            if !newcomers.isEmpty { send(Dictionary(uniqueKeysWithValues: newcomers.map { ($0, Parts.everything) })) }
            if Date().timeIntervalSince(lastBeat) >= Self.heartbeat {
                lastBeat = Date()
                beat()
            }
        }
    }

    /// What a round of sends sends a stream, beyond checking its session.
    struct Parts: OptionSet {
        let rawValue: Int
        /// The page's new messages.
        static let thread = Parts(rawValue: 1)
        /// The meetup's places, waitlist and the viewer's standing.
        static let pageState = Parts(rawValue: 2)
        /// The unread count.
        static let bell = Parts(rawValue: 4)
        /// A comment line.
        static let heartbeat = Parts(rawValue: 8)
        /// The count of messages waiting in the member's rooms.
        static let messagesWaiting = Parts(rawValue: 16)
        /// A room's messages edited or deleted (`edited` names them).
        static let edits = Parts(rawValue: 32)
        static let everything: Parts = [.thread, .pageState, .bell, .messagesWaiting]
    }

    /// Sends what each change means to the streams it concerns.
    private func apply(_ changes: Set<Change>) {
        // A room's news concerns every stream of its members: who they are is read here, not
        // under the lock.
        var roomMembers: [Int64: Set<Int64>] = [:]
        for case .room(let id) in changes { roomMembers[id] = (try? database.talk.memberIDs(roomID: id)) ?? [] }
        let wanted: [Int: Parts] = state.withLock { state in
            var wanted: [Int: Parts] = [:]
            func add(_ ids: Set<Int>?, _ parts: Parts) {
                for id in ids ?? [] { wanted[id, default: []].formUnion(parts) }
            }
            for change in changes {
                switch change {
                case .talk(let id): add(state.byPage[.meetup(id)], .thread)
                case .guestbook(let id): add(state.byPage[.crew(id)], .thread)
                // Applications decide who may read the talk, so its thread is checked too.
                case .meetup(let id): add(state.byPage[.meetup(id)], [.thread, .pageState])
                case .crew(let id): add(state.byPage[.crew(id)], .thread)
                case .room(let id):
                    add(state.byPage[.room(id)], .thread)
                    // Whoever has the room open reads the message as it arrives: their count
                    // stays as it was, and is not read again for each of them.
                    let reading = Set((state.byPage[.room(id)] ?? []).compactMap { state.listeners[$0]?.userID })
                    for member in roomMembers[id] ?? [] where !reading.contains(member) { add(state.byUser[member], .messagesWaiting) }
                case .message(let roomID, _): add(state.byPage[.room(roomID)], .edits)
                case .notifications(let id): add(state.byUser[id], .bell)
                case .member(let id): add(state.byUser[id], [])  // the session's check alone
                case .everything: add(Set(state.listeners.keys), .everything)
                }
            }
            return wanted
        }
        var edited: [Int64: Set<Int64>] = [:]
        for case .message(let roomID, let messageID) in changes { edited[roomID, default: []].insert(messageID) }
        send(wanted, edited: edited)
    }

    /// A comment line to every stream, and what time alone changes (check-in opening, a
    /// session running out).
    private func beat() {
        send(state.withLock { state in state.listeners.mapValues { _ in [.heartbeat, .pageState] } })
    }

    /// Checks each stream's session, then sends it what is new of what was asked, and the
    /// messages of `edited` (by room) again as they are now.
    private func send(_ wanted: [Int: Parts], edited: [Int64: Set<Int64>] = [:]) {
        guard !wanted.isEmpty else { return }
        let listeners = state.withLock { state in wanted.compactMap { id, parts in state.listeners[id].map { (id, $0, parts) } } }
        let now = Date()
        guard let sessions = try? database.live.liveSessions(ids: Array(Set(listeners.map(\.1.sessionID)))) else { return }
        var cache = PageCache(database: database)
        // A room's new messages count as read for the members who have it open as they arrive;
        // written before the waiting counts are read.
        var seen: [Int64: (upTo: Int64, userIDs: Set<Int64>)] = [:]
        var updates: [(id: Int, listener: Listener, parts: Parts, sent: Bool)] = []
        for (id, listener, parts) in listeners {
            // Signed out, suspended, silenced or expired: the stream ends, whatever it waited for.
            guard let session = sessions[listener.sessionID], session.userID == listener.userID,
                  session.isLive(lifetime: lifetime, at: now)
            else {
                listener.stream.close()
                remove(id)
                continue
            }
            var updated = listener
            var events: [UInt8] = []
            if parts.contains(.heartbeat) { events += Array(": \n\n".utf8) }
            if parts.contains(.bell), let count = cache.unread(userID: listener.userID), count != listener.bell {
                updated.bell = count
                events += LiveEvent.bell(count, cursor: listener.cursor, render: render, language: listener.language)
            }
            if parts.contains(.pageState), case .meetup(let meetupID)? = listener.page,
               let state = cache.meetupState(meetupID: meetupID, userID: listener.userID, now: now, render: render, language: listener.language),
               state != listener.meetup {
                updated.meetup = state
                events += LiveEvent.meetup(state, cursor: listener.cursor)
            }
            if parts.contains(.thread), case .room(let roomID)? = listener.page, cache.readers(of: .room(roomID)).contains(listener.userID) {
                for item in cache.roomMessages(roomID, after: listener.cursor) {
                    guard let id = item.message.id, id > updated.cursor else { continue }
                    // Nobody's messages reach someone who blocks them, or whom they block.
                    if !cache.isBlocked(listener.userID, item.message.authorID) {
                        events += LiveEvent.roomMessage("message", data: cache.rendered(item, roomID: roomID, for: listener, render: render, now: now),
                                                        cursor: id)
                    }
                    updated.cursor = id
                }
                // Counted as read for the members who have the room open as they arrive.
                if updated.cursor > listener.cursor {
                    seen[roomID, default: (0, [])].upTo = max(seen[roomID]?.upTo ?? 0, updated.cursor)
                    seen[roomID, default: (0, [])].userIDs.insert(listener.userID)
                }
            } else if parts.contains(.thread), let page = listener.page, cache.readers(of: page).contains(listener.userID) {
                for message in cache.messages(of: page, after: listener.cursor) where message.id > updated.cursor {
                    // Nobody's messages reach someone who blocks them, or whom they block.
                    if !cache.isBlocked(listener.userID, message.authorID) { events += LiveEvent.message(message, render: render, language: listener.language) }
                    updated.cursor = message.id
                }
            }
            // Edits and deletions of messages the page already has, in place.
            if parts.contains(.edits), case .room(let roomID)? = listener.page, cache.readers(of: .room(roomID)).contains(listener.userID) {
                for messageID in (edited[roomID] ?? []).sorted() where messageID <= updated.cursor {
                    guard let item = cache.roomMessage(roomID, messageID), !cache.isBlocked(listener.userID, item.message.authorID) else { continue }
                    events += LiveEvent.roomMessage("edit", data: cache.rendered(item, roomID: roomID, for: listener, render: render, now: now),
                                                    cursor: updated.cursor)
                }
            }
            // What the page shows goes out at once; the writes it causes come after.
            if !events.isEmpty { listener.stream.send(events) }
            updates.append((id, updated, parts, !events.isEmpty))
        }
        for (roomID, read) in seen { try? database.talk.markRead(roomID: roomID, userIDs: read.userIDs, upTo: read.upTo) }
        for (id, listener, parts, sent) in updates {
            var updated = listener, changed = sent
            if parts.contains(.messagesWaiting), let count = cache.messagesWaiting(userID: listener.userID, now: now), count != listener.messagesWaiting {
                updated.messagesWaiting = count
                listener.stream.send(LiveEvent.messagesWaiting(count, cursor: listener.cursor))
                changed = true
            }
            guard changed else { continue }
            state.withLock { state in
                if state.listeners[id] != nil { state.listeners[id] = updated }
            }
        }
    }
}

/// What one round of sends reads, read once per page or member rather than per stream.
private struct PageCache {
    let database: AppDatabase
    private var readers: [LiveStreams.Page: Set<Int64>] = [:]
    private var messages: [LiveStreams.Page: (after: Int64, messages: [LiveMessage])] = [:]
    private var unread: [Int64: Int] = [:]
    private var waiting: [Int64: Int] = [:]
    private var blocks: [Int64: Set<Int64>] = [:]
    private var meetups: [Int64: (Meetup, waitlist: Int)?] = [:]
    private var roomItems: [Int64: (after: Int64, items: [MessageItem])] = [:]
    private var editedItems: [Int64: MessageItem?] = [:]
    private var staff: [Int64: Set<Int64>] = [:]
    private var renderedItems: [RenderedKey: [UInt8]] = [:]

    init(database: AppDatabase) {
        self.database = database
    }

    mutating func readers(of page: LiveStreams.Page) -> Set<Int64> {
        if let known = readers[page] { return known }
        let found: Set<Int64>
        switch page {
        case .meetup(let id): found = (try? database.live.talkReaders(meetupID: id)) ?? []
        case .crew(let id): found = (try? database.live.guestbookReaders(crewID: id)) ?? []
        case .room(let id): found = (try? database.talk.memberIDs(roomID: id)) ?? []
        }
        readers[page] = found
        return found
    }

    /// The page's messages after `after`: read once from the lowest cursor asked for.
    mutating func messages(of page: LiveStreams.Page, after: Int64) -> [LiveMessage] {
        if let known = messages[page], known.after <= after { return known.messages }
        let found: [LiveMessage]
        switch page {
        case .meetup(let id): found = (try? database.live.talk(meetupID: id, after: after)) ?? []
        case .crew(let id): found = (try? database.live.guestbook(crewID: id, after: after)) ?? []
        case .room: found = []  // rooms send their messages as the page shows them (`roomMessages`)
        }
        messages[page] = (after, found)
        return found
    }

    /// A room's messages after `after` as the room shows them, read once from the lowest cursor.
    mutating func roomMessages(_ roomID: Int64, after: Int64) -> [MessageItem] {
        if let known = roomItems[roomID], known.after <= after { return known.items }
        let found = (try? database.talk.messages(roomID: roomID, after: after, limit: 200)) ?? []
        roomItems[roomID] = (after, found)
        return found
    }

    /// One message of a room as it is now (edited or deleted).
    mutating func roomMessage(_ roomID: Int64, _ messageID: Int64) -> MessageItem? {
        if let known = editedItems[messageID] { return known }
        let found = (try? database.talk.item(roomID: roomID, messageID: messageID)) ?? nil
        editedItems[messageID] = .some(found)
        return found
    }

    /// A message's `<li>` as `listener` sees it, as its event's JSON, made once for each way it
    /// can look: in their language, theirs or not, with staff's delete or not.
    mutating func rendered(_ item: MessageItem, roomID: Int64, for listener: LiveStreams.Listener, render: LiveRendering, now: Date) -> [UInt8] {
        if staff[roomID] == nil { staff[roomID] = (try? database.talk.staffIDs(roomID: roomID)) ?? [] }
        let isStaff = staff[roomID]?.contains(listener.userID) == true
        let key = RenderedKey(messageID: item.message.id ?? 0, edited: item.message.editedAt, deleted: item.message.deletedAt != nil,
                              language: listener.language, isMine: item.message.authorID == listener.userID, isStaff: isStaff)
        if let known = renderedItems[key] { return known }
        let view = LiveMessageView(
            message: MessageView(item, roomID: roomID, viewerID: listener.userID, staffMayDelete: isStaff, firstUnread: false,
                                 posted: render.moment(item.message.createdAt, listener.language), now: now,
                                 photoAlt: { render.photoAlt($0, name: item.author.displayName, listener.language) }),
            csrf: "")
        var writer = HTMLWriter(listener.language, capacity: 1024)
        view.render(into: &writer)
        let data = LiveEvent.roomMessageData(id: item.message.id ?? 0, html: String(decoding: writer.bytes, as: UTF8.self))
        renderedItems[key] = data
        return data
    }

    private struct RenderedKey: Hashable {
        let messageID: Int64
        let edited: Date?
        let deleted: Bool
        let language: Language
        let isMine: Bool
        let isStaff: Bool
    }

    mutating func unread(userID: Int64) -> Int? {
        if let known = unread[userID] { return known }
        let count = try? database.live.unreadNotificationCount(userID: userID)
        unread[userID] = count
        return count
    }

    /// Whether either of two members blocks the other: read once per author a round, whatever
    /// the number of streams its messages go to.
    mutating func isBlocked(_ userID: Int64, _ authorID: Int64) -> Bool {
        if blocks[authorID] == nil { blocks[authorID] = (try? database.live.blockedEitherWay(userID: authorID)) ?? [] }
        return blocks[authorID]?.contains(userID) == true
    }

    mutating func messagesWaiting(userID: Int64, now: Date) -> Int? {
        if let known = waiting[userID] { return known }
        let count = try? database.talk.unreadCount(userID: userID, now: now)
        waiting[userID] = count
        return count
    }

    mutating func meetupState(meetupID: Int64, userID: Int64, now: Date, render: LiveRendering, language: Language) -> MeetupLiveState? {
        if meetups[meetupID] == nil {
            meetups[meetupID] = .some((try? database.meetups.meetup(id: meetupID)).flatMap { meetup in
                (try? database.meetups.waitlistLength(meetupID: meetupID)).map { (meetup, $0) }
            })
        }
        guard let (meetup, waitlist) = meetups[meetupID] ?? nil else { return nil }
        let application = try? database.meetups.application(meetupID: meetupID, userID: userID)
        return render.meetupState(meetup, waitlist: waitlist, application: application ?? nil, viewerID: userID, now: now, language: language)
    }
}
