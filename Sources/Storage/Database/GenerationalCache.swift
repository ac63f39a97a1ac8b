import Synchronization

/// Values kept in memory up to about `limit` bytes in each of two generations: once the
/// newer holds `limit` bytes it becomes the older, and what the older held goes. A value read
/// from the older moves to the newer, so what is read often stays. Callers say what each
/// value weighs and check that a kept value is still current (`value(_:_:)`).
///
/// Its methods are inlinable, so that a module using it gets them specialized to its own
/// types: generic across modules, a page of post cards spent 3 µs on value witnesses.
public final class GenerationalCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    @usableFromInline struct Entry: Sendable {
        @usableFromInline let value: Value
        @usableFromInline let size: Int

        @inlinable init(value: Value, size: Int) {
            self.value = value
            self.size = size
        }
    }

    @usableFromInline struct Generations: Sendable {
        @usableFromInline var newer: [Key: Entry] = [:]
        @usableFromInline var older: [Key: Entry] = [:]
        @usableFromInline var newerBytes = 0

        @inlinable init() {}

        @inlinable mutating func add(_ key: Key, _ entry: Entry, limit: Int) {
            if let replaced = newer.updateValue(entry, forKey: key) { newerBytes -= replaced.size }
            newerBytes += entry.size
            if newerBytes > limit {
                older = newer
                newer = [:]
                newerBytes = 0
            }
        }
    }

    @usableFromInline let generations = Mutex(Generations())
    @usableFromInline let limitBytes: Atomic<Int>
    /// The bytes each generation holds at most.
    @inlinable public var limit: Int { limitBytes.load(ordering: .relaxed) }

    public init(limit: Int) {
        limitBytes = Atomic(max(0, limit))
    }

    /// Holds at most `limit` bytes in each generation from now on (the server's
    /// `--cache-megabytes`).
    public func resize(to limit: Int) {
        limitBytes.store(max(0, limit), ordering: .relaxed)
    }

    /// What `read` makes of the value kept for `key` (nil when there is none, or when `read`
    /// finds it stale). `read` runs under the cache's lock, so that only its answer is copied
    /// out, not the whole value.
    @inlinable public func value<Answer>(_ key: Key, _ read: (Value) -> Answer?) -> Answer? {
        generations.withLock { state -> Answer? in
            if let entry = state.newer[key] { return read(entry.value) }
            guard let entry = state.older.removeValue(forKey: key) else { return nil }
            state.add(key, entry, limit: limit)
            return read(entry.value)
        }
    }

    /// Keeps `value` for `key`, weighing about `size` bytes.
    @inlinable public func keep(_ key: Key, _ value: Value, size: Int) {
        generations.withLock { $0.add(key, Entry(value: value, size: size), limit: limit) }
    }

    /// Bytes held by both generations.
    public var bytes: Int {
        generations.withLock { state in
            state.newerBytes + state.older.values.reduce(0) { $0 + $1.size }
        }
    }
}
