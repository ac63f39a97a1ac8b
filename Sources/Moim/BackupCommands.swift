import ArgumentParser
import Formats
import Foundation
import Storage
import Web

struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Write the whole site (a consistent copy of the database, every image, a manifest) to one tar archive, while it serves.")

    @OptionGroup var dataOptions: DataOptions
    @Argument(help: "The archive to write, e.g. moim-2026-11-24.tar.") var output: String

    func run() throws {
        do {
            let summary = try Backup.write(data: dataOptions.data, postgres: dataOptions.databaseURL, bucket: try dataOptions.mediaBucket(), to: output)
            print("Wrote \(output): the database and \(summary.files - 1) images, \(summary.bytes) bytes, schema of \(summary.migrations) migrations.")
        } catch let error as BackupError {
            fail(error.description)
        }
    }
}

struct RestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Check an archive from moim backup (checksums, PRAGMA integrity_check) and restore it into a data directory.")

    @Argument(help: "The archive moim backup wrote.") var archive: String
    @OptionGroup var dataOptions: DataOptions
    @Flag(help: "Replace the site in a directory that is not empty (stop its server first).") var force = false

    func run() throws {
        do {
            let summary = try Backup.restore(
                archive: archive, to: dataOptions.data, postgres: dataOptions.databaseURL, bucket: try dataOptions.mediaBucket(), force: force)
            let checked = dataOptions.databaseURL == nil ? "integrity ok" : "schema checked"
            print("Restored \(summary.files - 1) images and the database (\(summary.migrations) migrations) into \(dataOptions.location); \(checked).")
        } catch let error as BackupError {
            fail(error.description)
        } catch let error as TarError {
            fail(error.description)
        }
    }
}

/// Says why on standard error and exits with status 1 (not 64: the command was used right).
private func fail(_ reason: String) -> Never {
    FileHandle.standardError.write(Data("Error: \(reason)\n".utf8))
    Foundation.exit(1)
}
