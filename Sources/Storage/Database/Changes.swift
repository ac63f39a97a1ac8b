import Foundation
import Synchronization

/// Something a committed write changed that an open page may want to show at once (the live
/// updates): writes name them as they go (`SQLConnection.changed`), and listeners hear of them
/// once the transaction has committed, never before and never for one rolled back.
public enum Change: Hashable, Sendable {
    /// A message in a meetup's talk.
    case talk(meetupID: Int64)
    /// A comment in a crew's guestbook.
    case guestbook(crewID: Int64)
    /// A meetup's places, waitlist, applications, time, place or state.
    case meetup(meetupID: Int64)
    /// A member's notifications: a new one, or read.
    case notifications(userID: Int64)
    /// Who a member is: signed out somewhere, suspended, silenced or let go.
    case member(userID: Int64)
    /// Who belongs to a crew.
    case crew(crewID: Int64)
    /// A message sent in a room, or who is in the room.
    case room(roomID: Int64)
    /// A room's message edited or deleted.
    case message(roomID: Int64, messageID: Int64)
    /// Anything may have changed (a listener lost touch for a while).
    case everything

    /// The change as a short word of text (`t12`), as it travels between servers.
    var word: String {
        switch self {
        case .talk(let id): "t\(id)"
        case .guestbook(let id): "g\(id)"
        case .meetup(let id): "m\(id)"
        case .notifications(let id): "n\(id)"
        case .member(let id): "u\(id)"
        case .crew(let id): "c\(id)"
        case .room(let id): "r\(id)"
        case .message(let roomID, let messageID): "e\(roomID).\(messageID)"
        case .everything: "*"
        }
    }

    /// The change a word names; nil for anything else.
    init?(word: Substring) {
        if word == "*" {
            self = .everything
            return
        }
        if word.first == "e" {
            let ids = word.dropFirst().split(separator: ".", omittingEmptySubsequences: false).map { Int64($0) }
            guard ids.count == 2, let roomID = ids[0], let messageID = ids[1], roomID > 0, messageID > 0 else { return nil }
            self = .message(roomID: roomID, messageID: messageID)
            return
        }
        guard let kind = word.first, let id = Int64(word.dropFirst()), id > 0 else { return nil }
        switch kind {
        case "t": self = .talk(meetupID: id)
        case "g": self = .guestbook(crewID: id)
        case "m": self = .meetup(meetupID: id)
        case "n": self = .notifications(userID: id)
        case "u": self = .member(userID: id)
        case "c": self = .crew(crewID: id)
        case "r": self = .room(roomID: id)
        default: return nil
        }
    }

    /// Whether it may change what a member's kept session shows (`AppDatabase.session`).
    var concernsMembers: Bool {
        switch self {
        case .member, .notifications, .everything: true
        case .talk, .guestbook, .meetup, .crew, .room, .message: false
        }
    }

    /// Changes as one line of words, and back (what does not parse is left out).
    static func encode(_ changes: Set<Change>) -> String { changes.map(\.word).sorted().joined(separator: ",") }
    static func decode(_ text: String) -> Set<Change> { Set(text.split(separator: ",").compactMap(Change.init(word:))) }
}

/// How committed changes reach listeners: the one small interface behind the live updates.
/// Within one process (SQLite) they are handed over in memory; with PostgreSQL, where several
/// servers share the database, they travel with the transaction as a `NOTIFY`, and every
/// server hears them through `LISTEN`.
protocol ChangeSignal: Sendable {
    /// Called inside the write's transaction, after its statements.
    func send(_ changes: Set<Change>, in db: SQLConnection) throws
    /// Called once the write has committed.
    func committed(_ changes: Set<Change>)
    /// `handler` hears every change committed from now on, on a thread of the signal's.
    func listen(_ handler: @escaping @Sendable (Set<Change>) -> Void)
    /// Stops hearing changes (the database is closing).
    func close()
}

extension ChangeSignal {
    func close() {}
}

/// The listeners of a signal.
final class ChangeListeners: Sendable {
    private let handlers = Mutex<[@Sendable (Set<Change>) -> Void]>([])

    /// Adds one; true if it is the first.
    @discardableResult
    func add(_ handler: @escaping @Sendable (Set<Change>) -> Void) -> Bool {
        handlers.withLock { handlers in
            handlers.append(handler)
            return handlers.count == 1
        }
    }

    func tell(_ changes: Set<Change>) {
        guard !changes.isEmpty else { return }
        for handler in handlers.withLock({ $0 }) { handler(changes) }
    }
}

/// Changes handed over in memory, in the writing thread, after the commit: one process on
/// SQLite is the only writer there is.
final class InProcessSignal: ChangeSignal {
    private let listeners = ChangeListeners()

    func send(_ changes: Set<Change>, in db: SQLConnection) throws {}
    func committed(_ changes: Set<Change>) { listeners.tell(changes) }
    func listen(_ handler: @escaping @Sendable (Set<Change>) -> Void) { listeners.add(handler) }
}

/// Changes as PostgreSQL notifications on the channel `moim_changes`: sent in the writing
/// transaction (so they go out only if it commits, and in commit order), heard on a
/// connection of their own that `LISTEN`s, on every server sharing the database.
final class PostgresSignal: ChangeSignal {
    static let channel = "moim_changes"
    private let hearing: Hearing

    init(url: String) {
        hearing = Hearing(url: url)
    }

    deinit {
        close()
    }

    func send(_ changes: Set<Change>, in db: SQLConnection) throws {
        guard !changes.isEmpty else { return }
        // A notification holds under 8,000 bytes; a write that changed more says so.
        let payload = Change.encode(changes)
        try db.execute("SELECT pg_notify('\(Self.channel)', ?)", [payload.utf8.count < 7_000 ? payload : Change.everything.word])
    }

    func committed(_ changes: Set<Change>) {}

    /// Returns once the connection listens (or, PostgreSQL being down, after 5 seconds of
    /// trying), so that a change committed after this call is heard.
    func listen(_ handler: @escaping @Sendable (Set<Change>) -> Void) {
        guard hearing.listeners.add(handler) else { return }
        let listening = DispatchSemaphore(value: 0)
        // The thread holds what it hears with, not the signal: a signal nobody holds any more
        // (a database let go) closes, and its thread ends within one wait.
        let thread = Thread { [hearing] in hearing.hear(listening) }
        thread.name = "moim-changes"
        thread.start()
        _ = listening.wait(timeout: .now() + 5)
    }

    func close() {
        hearing.closed.store(true, ordering: .releasing)
    }

    /// The listening connection's side: the listeners, and whether to stop.
    private final class Hearing: Sendable {
        let url: String
        let listeners = ChangeListeners()
        let closed = Atomic(false)

        init(url: String) {
            self.url = url
        }

        /// Listens until closed; after losing the connection (PostgreSQL restarting), connects
        /// again and tells the listeners that anything may have changed meanwhile.
        func hear(_ listening: DispatchSemaphore) {
            var lostTouch = false
            while !closed.load(ordering: .acquiring) {
                do {
                    try listenUntilLostOrClosed {
                        if lostTouch { listeners.tell([.everything]) } else { listening.signal() }
                    }
                } catch {
                    lostTouch = true
                    Thread.sleep(forTimeInterval: 1)
                }
            }
        }

        /// Connects, `LISTEN`s, calls `listening`, then passes on what it hears until the
        /// connection is lost or the signal closed. Kept out of `hear`'s loop: the optimizer spent
        /// half an hour of a release build on the two endless loops written as one function.
        @inline(never)
        private func listenUntilLostOrClosed(_ listening: () -> Void) throws {
            let connection = try PostgresConnection(url: url)
            try connection.execute("LISTEN \(PostgresSignal.channel)")
            listening()
            while !closed.load(ordering: .acquiring) {
                let payloads = try connection.notifications(on: PostgresSignal.channel, waiting: 5_000)
                listeners.tell(payloads.reduce(into: Set<Change>()) { $0.formUnion(Change.decode($1)) })
            }
        }
    }
}
