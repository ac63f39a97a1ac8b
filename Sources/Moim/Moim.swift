import ArgumentParser
import Foundation
import Storage

@main
struct Moim: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "moim",
        abstract: "A self-hosted community site for sports crews.",
        subcommands: [Serve.self, Migrate.self, Admin.self, Demo.self, BackupCommand.self, RestoreCommand.self, CopyCommand.self],
        defaultSubcommand: Serve.self
    )
}

/// Options every command that opens the database shares; each flag has an environment twin.
struct DataOptions: ParsableArguments {
    @Option(help: "Folder for the SQLite database and uploads (env MOIM_DATA).")
    var data: String = Environment.value("MOIM_DATA") ?? "./data"

    @Option(name: .customLong("database"), help: ArgumentHelp(
        "PostgreSQL instead of SQLite in --data: postgres://user:pass@host:5432/moim?sslmode=require (or libpq's key=value form), handed to libpq as it is (env MOIM_DATABASE_URL).",
        valueName: "url"))
    var databaseFlag: String?

    @Option(help: "At most this many connections to PostgreSQL from this process (env MOIM_DATABASE_CONNECTIONS).")
    var databaseConnections: Int = Environment.value("MOIM_DATABASE_CONNECTIONS").flatMap(Int.init) ?? 10

    var databaseURL: String? { databaseFlag ?? Environment.value("MOIM_DATABASE_URL") }

    /// Opens the database these options name and brings its schema up to date; a database
    /// that cannot be opened is one line saying why.
    func open(walAutocheckpoint: Int = 1_000) throws -> AppDatabase {
        guard let url = databaseURL else { return try AppDatabase.open(directory: data, walAutocheckpoint: walAutocheckpoint) }
        guard (2...1_000).contains(databaseConnections) else { throw ValidationError("--database-connections must be between 2 and 1000.") }
        do {
            return try AppDatabase.open(postgres: url, connections: databaseConnections)
        } catch let error as PostgresError {
            throw DatabaseUnavailable(reason: error.description)
        }
    }

    /// Where the data lives, for the start-up line (never the password).
    var location: String {
        databaseURL == nil ? "data in \(data)" : "PostgreSQL, uploads in \(data)/media"
    }
}

/// A database the command could not open: one line, exit status 1.
struct DatabaseUnavailable: Error, CustomStringConvertible {
    let reason: String

    var description: String {
        "cannot open the database: " + reason.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }
}

enum Environment {
    static func value(_ name: String) -> String? {
        guard let raw = getenv(name) else { return nil }
        let value = String(cString: raw)
        return value.isEmpty ? nil : value
    }
}

#if canImport(Glibc)
import Glibc
#endif
