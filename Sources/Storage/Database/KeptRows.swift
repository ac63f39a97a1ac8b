import Foundation
import Synchronization

/// Posts and comments as feeds and threads show them, decoded once and kept while their
/// revision (`RevisionsSchema`) stands. A feed reads only numbers for each post — its id and
/// revision, its counts, what the reader did with it — and its text, author and photos only
/// for revisions not kept: reading and decoding those was half of a signed-in feed's time.
final class KeptRows: Sendable {
    let posts = GenerationalCache<Int64, Revised<KeptPost>>(limit: 8 << 20)
    let comments = GenerationalCache<Int64, Revised<ThreadComment>>(limit: 8 << 20)
    /// Signed-in members by session token hash (`AppDatabase.session`).
    let sessions = GenerationalCache<Data, KeptSession>(limit: 4 << 20)
    /// On PostgreSQL: the writes this process has committed (SQLite counts its own in
    /// `SQLiteStore.writes`), and the changes to members heard from every server sharing the
    /// database, once `listening` says they are heard.
    let writes = Atomic<UInt64>(0)
    let memberChanges = Atomic<UInt64>(0)
    let listening = Atomic<Listening>(.no)

    enum Listening: UInt8, AtomicRepresentable { case no, starting, yes }

    /// Shares of `CacheBudget`, in its parts.
    func resize(_ budget: CacheBudget) {
        posts.resize(to: budget.bytes(for: .posts))
        comments.resize(to: budget.bytes(for: .comments))
        sessions.resize(to: budget.bytes(for: .sessions))
    }
}

/// The memory the server's caches keep, in all: set by `moim serve --cache-megabytes`, and
/// shared out in fixed parts. Every cache is bounded in bytes, never by a count of rows, so a
/// site ten times bigger keeps the same memory (`script/bench --ladder` prints it).
public struct CacheBudget: Sendable {
    /// 38 MB: two generations of each part, so at most twice this is held.
    public static let standard = CacheBudget(megabytes: 38)

    public enum Part: Int, CaseIterable, Sendable {
        /// Decoded posts and comments (`KeptRows`), signed-in sessions.
        case posts, comments, sessions
        /// Rendered cards (`FragmentCache` in Web).
        case postCards, commentCards, meetupCards

        /// Its share, in 38ths of the budget (the sizes measured for the standard budget).
        var share: Int {
            switch self {
            case .posts, .comments, .postCards, .commentCards: 8
            case .sessions: 4
            case .meetupCards: 2
            }
        }
    }

    public let megabytes: Int

    public init(megabytes: Int) {
        self.megabytes = min(max(1, megabytes), 1 << 20)
    }

    /// The bytes of each generation of `part`.
    public func bytes(for part: Part) -> Int {
        let total = Part.allCases.reduce(0) { $0 + $1.share }
        return megabytes * (1 << 20) / total * part.share
    }
}

/// A session and its member as read at `generation` (`AppDatabase.keptGeneration`), at
/// `readAt` (nanoseconds of the monotonic clock).
struct KeptSession: Sendable {
    let member: SignedInMember
    let generation: UInt64
    let readAt: UInt64

    /// Long enough to spare the read for a burst of pages; short enough that a change made
    /// by another process (a `moim` command on the same file) shows almost at once.
    static let lifetime: UInt64 = 1_000_000_000

    /// About what it holds, in bytes.
    var size: Int { 1024 + member.notices.warnings.reduce(0) { $0 + $1.utf8.count } }
}

/// A value as it was at one revision of its row.
struct Revised<Value: Sendable>: Sendable {
    let revision: Int64
    let value: Value
}

/// What a card shows of a post but its counts.
struct KeptPost: Sendable {
    let post: Post
    let author: Author
    let photos: [Photo]

    /// About what it holds, in bytes.
    var size: Int { 256 + post.body.utf8.count + post.bodyHTML.utf8.count + photos.count * 128 }
}

/// A row as a statement stamps it: its id and the revision it is at.
protocol RowStamp {
    var id: Int64 { get }
    var revision: Int64 { get }
}

extension GenerationalCache where Key == Int64 {
    /// What is kept of row `id`, if it is of `revision`.
    func value<Kept>(_ id: Int64, revision: Int64) -> Revised<Kept>? where Value == Revised<Kept> {
        value(id) { $0.revision == revision ? $0 : nil }
    }

    /// What is kept of each stamped row at its revision, the rows not kept read by `read`
    /// (given their ids, all at once; it keeps what it reads). A row `read` no longer finds
    /// (deleted since its stamp) is nil.
    func values<Kept>(
        _ stamps: some Collection<some RowStamp>, read: ([Int64]) throws -> [Int64: Revised<Kept>]
    ) rethrows -> [Revised<Kept>?] where Value == Revised<Kept> {
        let kept = stamps.map { value($0.id, revision: $0.revision) }
        let missing = zip(stamps, kept).compactMap { $1 == nil ? $0.id : nil }
        guard !missing.isEmpty else { return kept }
        let fresh = try read(missing)
        return zip(stamps, kept).map { stamp, kept in kept ?? fresh[stamp.id] }
    }
}

extension AppDatabase {
    /// A number that changes whenever a kept session may have gone stale: this process's writes
    /// on SQLite; on PostgreSQL those plus the member changes heard, or nil (keep nothing)
    /// until they are heard.
    var keptGeneration: UInt64? {
        switch store {
        case .sqlite(let sqlite):
            return sqlite.writes.load(ordering: .sequentiallyConsistent)
        case .postgres:
            guard hearsMemberChanges() else { return nil }
            return kept.writes.load(ordering: .sequentiallyConsistent) &+ kept.memberChanges.load(ordering: .sequentiallyConsistent)
        }
    }

    /// Starts listening for member changes the first time a session is read (a tool that reads
    /// none opens no listening connection); true once they are heard.
    func hearsMemberChanges() -> Bool {
        if kept.listening.load(ordering: .acquiring) == .yes { return true }
        guard kept.listening.compareExchange(expected: .no, desired: .starting, ordering: .acquiringAndReleasing).exchanged else { return false }
        let kept = kept
        signal.listen { changes in
            if changes.contains(where: \.concernsMembers) { kept.memberChanges.add(1, ordering: .sequentiallyConsistent) }
        }
        kept.listening.store(.yes, ordering: .releasing)
        return true
    }
}
