import CEpoll
import Foundation
import Glibc

/// Keeps a server up through crashes and upgrades: a small parent process that holds the
/// listening socket and runs the server in a child it starts again at once when it dies.
///
/// While no child runs, new connections wait in the socket's queue instead of being
/// refused. `SIGHUP` starts a new child (a new binary, after an upgrade) and, once it is
/// serving, asks the old one to drain with `SIGTERM`. `SIGINT`/`SIGTERM` stop the child
/// gracefully, then the parent. Requests that keep crashing children are quarantined
/// (`CrashLedger`).
public final class Supervisor {
    /// Environment through which a child learns it is supervised.
    static let listenerVariable = "SUPERVISED_LISTENER_FD"
    static let tableVariable = "SUPERVISED_TABLE_FD"
    static let readyVariable = "SUPERVISED_READY_FD"
    static let supervisorVariable = "SUPERVISOR_PID"

    private struct Child {
        let pid: pid_t
        let table: RequestTable
        let readyFD: Int32
        var isReady = false
    }

    private let listener: Int32
    private let arguments: [String]
    /// The executable children run: the path this one was started by, so that after an
    /// upgrade has replaced the file, `SIGHUP` starts the new one.
    private let executable: String
    private var ledger = CrashLedger()
    private var current: Child?
    private var replacement: Child?
    private var draining: [pid_t: Child] = [:]
    private var failedStarts = 0
    /// When children died lately: past a few a second, restarts slow down a little.
    private var deaths: [Date] = []

    /// `arguments` start a child (`arguments[0]` is the executable); it serves `listener`.
    public init(listener: Int32, arguments: [String]) {
        self.listener = listener
        self.arguments = arguments
        let path = arguments.first ?? ""
        executable = path.contains("/") ? URL(fileURLWithPath: path).standardizedFileURL.path : "/proc/self/exe"
        // The child gets the socket as descriptor 3; if it already is 3, dup2 is skipped, so
        // it must not be close-on-exec.
        _ = fcntl(listener, F_SETFD, 0)
    }

    /// Supervises until `SIGINT` or `SIGTERM`; returns the exit status for the parent.
    public func run() -> Int32 {
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGCHLD] { sigaddset(&signals, signal) }
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        do { current = try start() } catch {
            log("cannot start the server: \(error)")
            return 1
        }
        while true {
            var info = siginfo_t()
            var timeout = timespec(tv_sec: 0, tv_nsec: 100_000_000)
            let received = sigtimedwait(&signals, &info, &timeout)
            switch received {
            case SIGINT, SIGTERM:
                stopAll()
                return 0
            case SIGHUP where replacement == nil:
                log("SIGHUP: starting a new server to take over")
                replacement = try? start()
            default:
                break
            }
            reapChildren()
            checkReadiness()
            if current == nil, restartIsDue() {
                guard failedStarts < 3 else {
                    log("the server failed to start three times in a row; giving up")
                    return 1
                }
                do { current = try start() } catch {
                    log("cannot start the server: \(error)")
                    failedStarts += 1
                }
            }
        }
    }

    // MARK: - Children

    private func start() throws -> Child {
        let table = try RequestTable(quarantine: ledger.quarantined())
        var pipeFDs: [Int32] = [0, 0]
        guard pipe(&pipeFDs) == 0 else { throw HTTPServerError.system("pipe", errno) }
        defer { close(pipeFDs[1]) }
        _ = fcntl(pipeFDs[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(pipeFDs[0], F_SETFL, O_NONBLOCK)
        // Fixed descriptor numbers in the child: dup2 clears close-on-exec on the copies.
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, listener, 3)
        posix_spawn_file_actions_adddup2(&actions, table.fd, 4)
        posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 5)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))

        var environment = ProcessInfo.processInfo.environment
        environment[Self.listenerVariable] = "3"
        environment[Self.tableVariable] = "4"
        environment[Self.readyVariable] = "5"
        environment[Self.supervisorVariable] = String(getpid())
        // A crash report that names functions without stopping to symbolicate everything:
        // the child is replaced as soon as it has exited.
        if environment["SWIFT_BACKTRACE"] == nil { environment["SWIFT_BACKTRACE"] = "interactive=no,symbolicate=fast,threads=crashed" }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0.key + "=" + $0.value) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard status == 0 else { throw HTTPServerError.system("posix_spawn", status) }
        log("started server process \(pid)")
        return Child(pid: pid, table: table, readyFD: pipeFDs[0])
    }

    /// A child writes to its ready pipe once it serves; a replacement that is ready takes over.
    private func checkReadiness() {
        for child in [current, replacement].compactMap({ $0 }) where !child.isReady {
            var byte: UInt8 = 0
            guard read(child.readyFD, &byte, 1) == 1 else { continue }
            close(child.readyFD)
            failedStarts = 0
            if child.pid == current?.pid { current?.isReady = true }
            if child.pid == replacement?.pid, var next = replacement {
                next.isReady = true
                if let old = current {
                    kill(old.pid, SIGTERM)
                    draining[old.pid] = old
                    log("server process \(next.pid) took over; \(old.pid) is finishing its requests")
                }
                current = next
                replacement = nil
            }
        }
    }

    private func reapChildren() {
        var status: Int32 = 0
        while case let pid = waitpid(-1, &status, WNOHANG), pid > 0 {
            if draining.removeValue(forKey: pid) != nil {
                log("server process \(pid) finished its requests and stopped")
            } else if let child = current, child.pid == pid {
                childDied(child, status: status)
                current = nil
            } else if let child = replacement, child.pid == pid {
                childDied(child, status: status)
                replacement = nil
            }
        }
    }

    /// At once, unless five children died in the last ten seconds: then half a second after
    /// the last death, so that a child that cannot live does not burn a core being restarted.
    private func restartIsDue(now: Date = Date()) -> Bool {
        deaths = deaths.filter { now.timeIntervalSince($0) < 10 }
        guard deaths.count >= 5, let last = deaths.last else { return true }
        return now.timeIntervalSince(last) >= 0.5
    }

    private func childDied(_ child: Child, status: Int32) {
        deaths.append(Date())
        if !child.isReady {
            failedStarts += 1
            close(child.readyFD)
        }
        let inFlight = child.table.inFlight
        log("server process \(child.pid) \(Self.describe(status))"
            + (inFlight.isEmpty ? "" : " while running: " + inFlight.joined(separator: ", ")))
        for key in ledger.recordCrash(inFlight: inFlight) {
            log("refusing \(key) for \(Int(ledger.quarantine / 60)) minutes: it was running at \(ledger.strikes) crashes")
        }
    }

    private func stopAll() {
        let children = [current, replacement].compactMap { $0 } + Array(draining.values)
        log("stopping: asking the server to finish its requests")
        for child in children { kill(child.pid, SIGTERM) }
        var status: Int32 = 0
        for child in children { waitpid(child.pid, &status, 0) }
    }

    static func describe(_ status: Int32) -> String {
        let signal = status & 0x7F
        if signal == 0 { return "exited with status \((status >> 8) & 0xFF)" }
        return "was killed by signal \(signal) (\(String(cString: strsignal(signal))))"
    }

    private func log(_ message: String) {
        FileHandle.standardError.write(Data("supervisor: \(message)\n".utf8))
    }

    // MARK: - In the child

    /// The listening socket and request table a supervisor handed down, if this process is
    /// a supervised child.
    ///
    /// A child must not outlive its supervisor: alone, it would hold the port and the
    /// database while nothing restarts it, and a new `moim serve` could not start. So, as
    /// PostgreSQL's backends watch the postmaster, it asks the kernel for `SIGTERM` when the
    /// supervisor dies (its graceful stop finishes the requests in flight); a supervisor that
    /// died before the request was made is seen by the parent pid having changed already.
    public static func inheritance() throws -> (listener: Int32, table: RequestTable)? {
        guard let listener = descriptor(listenerVariable), let table = descriptor(tableVariable) else { return nil }
        if let supervisor = descriptor(supervisorVariable) {
            guard moim_set_parent_death_signal(SIGTERM) == 0 else { throw HTTPServerError.system("prctl", errno) }
            guard getppid() == supervisor else { throw HTTPServerError.supervisorGone }
        }
        return (listener, try RequestTable(adopting: table))
    }

    /// Tells the supervisor this child is serving.
    public static func announceReady() {
        guard let fd = descriptor(readyVariable) else { return }
        var byte: UInt8 = 1
        _ = write(fd, &byte, 1)
        close(fd)
    }

    private static func descriptor(_ name: String) -> Int32? {
        ProcessInfo.processInfo.environment[name].flatMap { Int32($0) }
    }
}
