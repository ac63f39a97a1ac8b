import Foundation

/// Which requests a supervisor stops running because they keep crashing the server.
///
/// When a serving process dies, every request it had in flight is a suspect; one that was in
/// flight at `strikes` crashes within `window` is refused (503) for `quarantine`, so that a
/// poison request — a stored row that traps whatever page shows it — takes the server down
/// twice, not in a loop. Innocent requests that happened to run beside it rarely strike twice.
struct CrashLedger: Sendable {
    var strikes = 2
    var window: TimeInterval = 600
    var quarantine: TimeInterval = 600

    private var crashes: [String: [Date]] = [:]
    private var until: [String: Date] = [:]

    /// Records a crash with `inFlight` running; returns the keys newly quarantined.
    mutating func recordCrash(inFlight: [String], at now: Date = Date()) -> [String] {
        var quarantined: [String] = []
        for key in Set(inFlight) {
            let recent = (crashes[key] ?? []).filter { now.timeIntervalSince($0) < window } + [now]
            crashes[key] = recent
            if recent.count >= strikes, until[key].map({ $0 <= now }) ?? true {
                until[key] = now.addingTimeInterval(quarantine)
                quarantined.append(key)
            }
        }
        crashes = crashes.filter { $0.value.contains { now.timeIntervalSince($0) < window } }
        return quarantined.sorted()
    }

    /// Keys refused now, with when each is let through again.
    func quarantined(at now: Date = Date()) -> [String: Date] {
        until.filter { $0.value > now }
    }
}
