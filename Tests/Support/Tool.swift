import Foundation

/// What a command printed and how it ended.
public struct ToolRun: Sendable {
    public let status: Int32
    public let output: String
}

/// A command that did not end within its time; it was killed.
public struct ToolTimedOut: Error, CustomStringConvertible {
    public let command: [String]
    public let seconds: Double
    public var description: String { "\(command.joined(separator: " ")) still ran after \(seconds) s" }
}

/// Runs a command to its end, as the tests run curl, openssl, exiftool and the like: spawned
/// here with its input and output in files, reaped by its pid, killed past `timeout`.
///
/// Not Foundation's `Process` with a `Pipe`: a pipe's writing end, inherited by a server
/// another test starts at the same moment, keeps `readToEnd` waiting for as long as that
/// server lives (a proxy test once waited 860 s for a curl that had long ended).
@discardableResult
public func runTool(_ executable: String, _ arguments: [String], input: [UInt8]? = nil, environment: [String: String] = [:],
                    includeErrors: Bool = false, timeout: TimeInterval = 120) throws -> ToolRun {
    let scratch = NSTemporaryDirectory() + "moim-tool-\(UUID().uuidString)"
    let inputPath = scratch + ".in", outputPath = scratch + ".out"
    defer { for path in [inputPath, outputPath] { try? FileManager.default.removeItem(atPath: path) } }
    try Data(input ?? []).write(to: URL(fileURLWithPath: inputPath))

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, inputPath, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    if includeErrors {
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
    } else {
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    }
    // Nothing else of this process (other commands' pipes, the sockets of the servers the
    // tests run) goes with it.
    guard closeFrom(&actions, 3) == 0 else { throw POSIXError(.EINVAL) }

    let command = [executable] + arguments
    let merged = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    let argv = command.map { strdup($0) } + [nil], envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    // Signals as a shell would give them: a test process may block SIGTERM in its threads (the
    // servers under test do), and a server the command starts would inherit that and outlive
    // its `stop`.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var unblocked = sigset_t(), defaults = sigset_t()
    sigemptyset(&unblocked)
    sigemptyset(&defaults)
    for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigmask(&attributes, &unblocked)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .ENOENT) }

    let deadline = Date().addingTimeInterval(timeout)
    var status: Int32 = 0
    while true {
        let reaped = waitpid(pid, &status, WNOHANG)
        if reaped == pid { break }
        if reaped < 0, errno != EINTR { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .ECHILD) }
        if Date() > deadline {
            kill(pid, SIGKILL)
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            throw ToolTimedOut(command: command, seconds: timeout)
        }
        usleep(5_000)
    }
    // Exited: its code; killed by a signal: 128 plus the signal, as a shell says it.
    let exitStatus = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    let output = String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: outputPath))) ?? Data(), as: UTF8.self)
    return ToolRun(status: exitStatus, output: output)
}

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34), which its headers show Swift only
/// under `_GNU_SOURCE`.
private let closeFrom: @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32 = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else {
        fatalError("glibc 2.34 or later is needed to run the tests")
    }
    return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
}()
