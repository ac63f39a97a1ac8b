import Foundation
import Synchronization

/// When the search indexes were last merged into one segment each: every six hours, 500
/// pages (2 MB) a minute, each step a short write between which the site goes on (a site of
/// 1,000,000 posts takes about 25 steps). Merging more often would rewrite the whole index
/// for every few new posts.
final class SearchIndexMerges: Sendable {
    static let interval: TimeInterval = 6 * 3_600
    /// The end of the last whole merge; nil while one is under way (or before the first).
    private let finished = Mutex<Date?>(nil)

    func isDue(_ now: Date) -> Bool {
        finished.withLock { last in last.map { now.timeIntervalSince($0) >= Self.interval } ?? true }
    }

    func stepped(working: Bool, _ now: Date) {
        finished.withLock { $0 = working ? nil : now }
    }
}

extension App {
    /// A step of the search indexes' merge, when one is due (`sweep`).
    func mergeSearchIndexes(now: Date) throws {
        guard searchIndexMerges.isDue(now) else { return }
        searchIndexMerges.stepped(working: try database.feed.mergeSearchIndexes(), now)
    }
}
