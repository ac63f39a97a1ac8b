import ArgumentParser
import Foundation
import Storage

struct CopyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Copy a whole SQLite site (--data) into an empty PostgreSQL database, then compare every table's rows and checksum.",
        discussion: "Stop the site first. Uploaded images stay in --data/media: serve the copy with the same --data and --database URL.")

    @Option(help: "Folder of the SQLite site to copy (its moim.sqlite).")
    var data: String = Environment.value("MOIM_DATA") ?? "./data"

    @Option(help: ArgumentHelp("The empty PostgreSQL database to copy into, postgres://user:pass@host:5432/moim.", valueName: "url"))
    var to: String

    func run() throws {
        guard FileManager.default.fileExists(atPath: data + "/moim.sqlite") else {
            throw ValidationError("No SQLite site in \(data) (no moim.sqlite there).")
        }
        let started = Date()
        let source = try AppDatabase.open(directory: data)
        defer { try? source.close() }
        var options = try DataOptions.parse(["--data", data, "--database", to])
        options.databaseConnections = 4
        let target = try options.open()
        defer { try? target.close() }
        do {
            let tables = try source.copy(to: target) { table, rows in print("\(table): \(rows) rows") }
            let total = tables.reduce(0) { $0 + $1.rows }
            print(String(format: "Copied %d rows in %.1f s; every table's row count and checksum match.", total, Date().timeIntervalSince(started)))
        } catch let error as CopyError {
            FileHandle.standardError.write(Data("moim copy: \(error.description)\n".utf8))
            throw ExitCode.failure
        }
    }
}
