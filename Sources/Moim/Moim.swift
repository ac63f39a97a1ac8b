import ArgumentParser

@main
struct Moim: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "moim",
        abstract: "A self-hosted community site for sports crews.",
        subcommands: [Serve.self, Migrate.self, Admin.self, Demo.self, BackupCommand.self, RestoreCommand.self],
        defaultSubcommand: Serve.self
    )
}

/// Options every command that opens the database shares; each flag has an environment twin.
struct DataOptions: ParsableArguments {
    @Option(help: "Folder for the SQLite database and uploads (env MOIM_DATA).")
    var data: String = Environment.value("MOIM_DATA") ?? "./data"
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
