import ArgumentParser
import Foundation
import Network
import Storage

@main
struct Moim: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "moim",
        abstract: "A self-hosted community site for sports crews.",
        subcommands: [Serve.self, Migrate.self, Admin.self, Demo.self, BackupCommand.self, RestoreCommand.self, CopyCommand.self, MediaCommand.self, PushCommand.self],
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

    @Option(help: ArgumentHelp(
        "serve: longest wait in seconds for PostgreSQL to answer one command; past it the page is a 503 and the connection is dropped, so a database that hangs (or waits for a standby that is gone) holds nothing for long (env MOIM_DATABASE_TIMEOUT).",
        valueName: "seconds"))
    var databaseTimeout: Int = Environment.value("MOIM_DATABASE_TIMEOUT").flatMap(Int.init) ?? 10

    @Option(name: .customLong("database-replica"), help: ArgumentHelp(
        "serve: a hot standby of --database (pg_basebackup -R) for the reads of pages that only read; repeat for more. A member's reads stay on the primary until the replica has replayed their own last write (env MOIM_DATABASE_REPLICAS, separated by spaces).",
        valueName: "url"))
    var databaseReplicaFlags: [String] = []

    @Option(help: ArgumentHelp(
        "serve: a replica further behind the primary than this many seconds, or down, takes no reads until it catches up (env MOIM_DATABASE_REPLICA_LAG).",
        valueName: "seconds"))
    var databaseReplicaLag: Double = Environment.value("MOIM_DATABASE_REPLICA_LAG").flatMap(Double.init) ?? 5

    @Option(name: .customLong("media-url"), help: ArgumentHelp(
        "Keep uploaded images in an S3-compatible bucket instead of --data/media, e.g. s3://moim-photos/media, with keys from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (env MOIM_MEDIA_URL).",
        valueName: "url"))
    var mediaFlag: String?

    @Option(name: .customLong("s3-endpoint"), help: ArgumentHelp(
        "The address of an S3-compatible store other than AWS (MinIO, Garage, Ceph), e.g. https://s3.example.com:9000; addressed path-style (env MOIM_S3_ENDPOINT).",
        valueName: "url"))
    var s3EndpointFlag: String?

    @Option(name: .customLong("s3-region"), help: ArgumentHelp(
        "The bucket's region (env MOIM_S3_REGION, then AWS_REGION; default us-east-1).", valueName: "name"))
    var s3RegionFlag: String?

    var databaseURL: String? { databaseFlag ?? Environment.value("MOIM_DATABASE_URL") }
    var replicaURLs: [String] {
        databaseReplicaFlags.isEmpty
            ? (Environment.value("MOIM_DATABASE_REPLICAS") ?? "").split(whereSeparator: \.isWhitespace).map(String.init)
            : databaseReplicaFlags
    }
    var mediaURL: String? { mediaFlag ?? Environment.value("MOIM_MEDIA_URL") }

    /// The bucket `--media-url` names, or nil for `--data/media`; settings that cannot work
    /// are one line saying which.
    func mediaBucket() throws -> S3Client? {
        guard let url = mediaURL else { return nil }
        guard let location = S3Location(url: url) else {
            throw ValidationError("--media-url must be s3://BUCKET/PREFIX with a valid bucket name (3–63 of a–z, 0–9, '.' and '-').")
        }
        let region = s3RegionFlag ?? Environment.value("MOIM_S3_REGION") ?? Environment.value("AWS_REGION") ?? "us-east-1"
        guard (1...32).contains(region.count), region.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }) else {
            throw ValidationError("--s3-region must be a region name such as ap-northeast-2.")
        }
        var endpoint: HTTPEndpoint?
        if let text = s3EndpointFlag ?? Environment.value("MOIM_S3_ENDPOINT") {
            guard let parsed = HTTPEndpoint(text) else { throw ValidationError("--s3-endpoint must be http(s)://host[:port], without a path.") }
            endpoint = parsed
        }
        guard let credentials = S3Credentials.fromEnvironment() else {
            throw ValidationError("--media-url needs the bucket's keys in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY.")
        }
        return S3Client(location: location, region: region, endpoint: endpoint, credentials: credentials)
    }

    /// Opens the database these options name and brings its schema up to date; a database
    /// that cannot be opened is one line saying why.
    /// `serving` bounds each command's wait by `--database-timeout`; tools (copy, demo,
    /// backup) wait as long as their statements take.
    func open(walAutocheckpoint: Int = 1_000, serving: Bool = false) throws -> AppDatabase {
        guard let url = databaseURL else {
            guard replicaURLs.isEmpty else { throw ValidationError("--database-replica needs PostgreSQL (--database).") }
            return try AppDatabase.open(directory: data, walAutocheckpoint: walAutocheckpoint)
        }
        guard (2...1_000).contains(databaseConnections) else { throw ValidationError("--database-connections must be between 2 and 1000.") }
        guard (1...3_600).contains(databaseTimeout) else { throw ValidationError("--database-timeout must be between 1 and 3600 seconds.") }
        guard databaseReplicaLag.isFinite, (0.1...3_600).contains(databaseReplicaLag) else {
            throw ValidationError("--database-replica-lag must be between 0.1 and 3600 seconds.")
        }
        do {
            return try AppDatabase.open(
                postgres: url, connections: databaseConnections, answerTimeout: serving ? databaseTimeout * 1_000 : nil,
                replicas: serving ? replicaURLs : [], lagBound: databaseReplicaLag)
        } catch let error as PostgresError {
            throw DatabaseUnavailable(reason: error.description)
        }
    }

    /// Where the data lives, for the start-up line (never the password).
    var location: String {
        let uploads = mediaURL.flatMap(S3Location.init(url:))?.description ?? data + "/media"
        return databaseURL == nil && mediaURL == nil ? "data in \(data)" : "\(databaseURL == nil ? "SQLite in " + data : "PostgreSQL"), uploads in \(uploads)"
    }
}

/// A database the command could not open: one line, exit status 1.
struct DatabaseUnavailable: Error, CustomStringConvertible {
    let reason: String

    var description: String {
        "cannot open the database: " + reason.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }
}

/// A bucket for images the server could not reach or use: one line, exit status 1.
struct MediaUnavailable: Error, CustomStringConvertible {
    let bucket: String
    let reason: String

    var description: String { "cannot use \(bucket) for images: \(reason)" }
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
