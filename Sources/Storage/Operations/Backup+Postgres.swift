import Foundation

/// A PostgreSQL site's database in a backup: `pg_dump` and `pg_restore`, Debian's own.
extension Backup {
    /// `pg_dump` of the database at `url` into `file` (one snapshot, while the site writes);
    /// returns its migrations.
    static func dump(_ url: String, to file: String) throws -> [String] {
        let database = try AppDatabase.open(postgres: url, connections: 2)
        defer { try? database.close() }
        let migrations = try database.appliedMigrations()
        try run("pg_dump", ["--format=custom", "--no-owner", "--no-privileges", "--file=" + file, "--dbname=" + url])
        return migrations
    }

    /// `pg_restore` of `file` into the empty database at `url`, in one transaction, then its
    /// schema checked against the manifest's.
    static func load(_ file: String, into url: String, migrations: [String]) throws {
        guard try AppDatabase.postgresTableCount(url) == 0 else { throw BackupError.notEmptyDatabase }
        try run("pg_restore", ["--no-owner", "--no-privileges", "--single-transaction", "--exit-on-error", "--dbname=" + url, file])
        let database = try AppDatabase.open(postgres: url, connections: 2)
        defer { try? database.close() }
        guard try database.appliedMigrations() == migrations else { throw BackupError.badManifest("its schema differs from the database's") }
    }

    /// Runs one of PostgreSQL's client programs (Debian's `postgresql-client`), or says why not.
    static func run(_ program: String, _ arguments: [String]) throws {
        let candidates = ["/usr/bin/" + program] + ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
            .sorted().reversed().map { "/usr/lib/postgresql/\($0)/bin/" + program }
        guard let path = candidates.first(where: FileManager.default.isExecutableFile(atPath:)) else { throw BackupError.missingTool(program) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let said = String(decoding: (try? errors.fileHandleForReading.readToEnd()) ?? Data(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BackupError.tool(program, said.split(whereSeparator: \.isNewline).first.map(String.init) ?? "status \(process.terminationStatus)")
        }
    }
}
