import Foundation

/// Runs `script` (Python, reading the zip at `sys.argv[1]`) on `bytes`: Python's own `zipfile`,
/// another implementation than the one under test. Returns what the script printed, or throws
/// when it failed (a bad CRC fails `testzip`).
public func pythonReadsZip(_ bytes: [UInt8], _ script: String) throws -> Data {
    let path = NSTemporaryDirectory() + "moim-zip-\(UUID().uuidString).zip"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = ["-c", script, path]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let printed = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw PythonZipFailure(status: process.terminationStatus) }
    return printed
}

public struct PythonZipFailure: Error {
    public let status: Int32
}
