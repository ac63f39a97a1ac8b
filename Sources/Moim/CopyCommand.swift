import ArgumentParser
import Foundation
import HTTP
import Network
import Storage

struct CopyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Copy a whole SQLite site (--data) into an empty PostgreSQL database, then compare every table's rows and checksum.",
        discussion: "Stop the site first. Uploaded images stay in --data/media (serve the copy with the same --data and --database URL), or with --media-url are copied into that bucket too (serve it with the same --media-url).")

    @Option(help: "Folder of the SQLite site to copy (its moim.sqlite).")
    var data: String = Environment.value("MOIM_DATA") ?? "./data"

    @Option(help: ArgumentHelp("The empty PostgreSQL database to copy into, postgres://user:pass@host:5432/moim.", valueName: "url"))
    var to: String

    @Option(name: .customLong("media-url"), help: ArgumentHelp("Also copy the images into this S3-compatible bucket, s3://BUCKET/PREFIX (keys from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY).", valueName: "url"))
    var mediaURL: String?

    @Option(name: .customLong("s3-endpoint"), help: ArgumentHelp("An S3-compatible store other than AWS, https://host:port.", valueName: "url"))
    var s3Endpoint: String?

    @Option(name: .customLong("s3-region"), help: ArgumentHelp("The bucket's region (default us-east-1).", valueName: "name"))
    var s3Region: String?

    func run() throws {
        guard FileManager.default.fileExists(atPath: data + "/moim.sqlite") else {
            throw ValidationError("No SQLite site in \(data) (no moim.sqlite there).")
        }
        let started = Date()
        let source = try AppDatabase.open(directory: data)
        defer { try? source.close() }
        var arguments = ["--data", data, "--database", to]
        if let mediaURL { arguments += ["--media-url", mediaURL] }
        if let s3Endpoint { arguments += ["--s3-endpoint", s3Endpoint] }
        if let s3Region { arguments += ["--s3-region", s3Region] }
        var options = try DataOptions.parse(arguments)
        options.databaseConnections = 4
        let bucket = try options.mediaBucket()
        let target = try options.open()
        defer { try? target.close() }
        do {
            let tables = try source.copy(to: target) { table, rows in print("\(table): \(rows) rows") }
            let total = tables.reduce(0) { $0 + $1.rows }
            print(String(format: "Copied %d rows in %.1f s; every table's row count and checksum match.", total, Date().timeIntervalSince(started)))
            if let bucket { try copyImages(to: bucket) }
        } catch let error as CopyError {
            FileHandle.standardError.write(Data("moim copy: \(error.description)\n".utf8))
            throw ExitCode.failure
        } catch let error as S3Error {
            FileHandle.standardError.write(Data("moim copy: the images: \(error.description)\n".utf8))
            throw ExitCode.failure
        }
    }

    /// Every image in `--data/media` into the bucket, then the bucket's list compared.
    private func copyImages(to bucket: S3Client) throws {
        let folder = data + "/media"
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.sorted()
        for name in names {
            guard let contents = FileManager.default.contents(atPath: folder + "/" + name) else {
                throw ValidationError("Cannot read \(folder)/\(name).")
            }
            try bucket.put(name, body: [UInt8](contents), contentType: StaticFiles.contentType(for: name))
        }
        let stored = Set(try bucket.names())
        guard let missing = names.first(where: { !stored.contains($0) }) else {
            print("Copied \(names.count) images to \(bucket.location.description).")
            return
        }
        FileHandle.standardError.write(Data("moim copy: \(missing) is not in \(bucket.location.description) after the copy\n".utf8))
        throw ExitCode.failure
    }
}
