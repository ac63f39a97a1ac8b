import Formats
import Foundation
import Network

/// `moim backup` and `moim restore`: the whole site in one tar archive.
///
/// The archive holds `manifest.json` first (format, time, the schema's migrations, and each
/// file's size and SHA-256), then `moim.sqlite` — a copy made with SQLite's online backup
/// while the site serves and writes, consistent as of one instant — then every uploaded image
/// as `media/NAME`. The database is copied before the images are listed, so every image the
/// copy refers to is in the archive (images are never changed, only added or deleted), unless
/// its post was deleted between the two. On PostgreSQL the database is `moim.pgdump`, Debian's
/// `pg_dump` in its custom format (one snapshot too), restored by `pg_restore` into an empty
/// database. Images kept in a bucket (`--media-url`) are fetched into the archive, and a
/// restore puts them back into the bucket it is given.
///
/// Which files are the site's images, and their types, are the media store's rules
/// (`MediaFiles`, given by Web's overloads that take none): anything else in the folder or
/// the bucket stays out, and an archive naming anything else is refused.
public enum Backup {
    struct Manifest: Codable {
        var format = 1
        var createdAt: Date
        var migrations: [String]
        var files: [Entry]
        /// `postgres` for a dump of PostgreSQL; absent for SQLite (archives from before).
        var engine: String?
    }

    struct Entry: Codable, Equatable {
        var path: String
        var size: Int
        var sha256: String
    }

    public struct Summary: Sendable {
        public let files: Int
        public let bytes: Int
        public let migrations: Int
    }

    static let databaseName = "moim.sqlite"
    static let dumpName = "moim.pgdump"
    static let manifestName = "manifest.json"

    // MARK: - Backup

    /// Writes the archive of the site in `data` (its database at `postgres`, its images in
    /// `bucket`, when given) to `output`, through a temporary file renamed once complete and
    /// on disk.
    public static func write(
        data: String, postgres: String? = nil, bucket: S3Client? = nil, to output: String, media: MediaFiles
    ) throws -> Summary {
        let manager = FileManager.default
        guard postgres != nil || manager.fileExists(atPath: data + "/" + databaseName) else { throw BackupError.noDatabase(data) }
        let staging = output + ".tmp-\(UUID().uuidString)"
        try manager.createDirectory(atPath: staging, withIntermediateDirectories: false)
        defer { try? manager.removeItem(atPath: staging) }

        let (copy, migrations): (String, [String])
        if let postgres {
            copy = dumpName
            migrations = try dump(postgres, to: staging + "/" + dumpName)
        } else {
            copy = databaseName
            migrations = try AppDatabase.snapshot(databaseAt: data + "/" + databaseName, to: staging + "/" + databaseName)
        }
        let snapshot = staging + "/" + copy
        var files = [Entry(path: copy, size: try size(of: snapshot), sha256: try hash(snapshot))]
        var folder = data + "/media"
        if let bucket {
            folder = staging + "/media"
            try fetchImages(from: bucket, into: folder, media: media)
        }
        let names = ((try? manager.contentsOfDirectory(atPath: folder)) ?? []).filter(media.isImage).sorted()
        var sources = [copy: snapshot]
        for name in names {
            let path = folder + "/" + name
            // Deleted since it was listed: it belonged to content gone from the copy too.
            guard let size = try? size(of: path), let digest = try? hash(path) else { continue }
            files.append(Entry(path: "media/" + name, size: size, sha256: digest))
            sources["media/" + name] = path
        }

        let manifest = try encoder.encode(Manifest(createdAt: Date(), migrations: migrations, files: files, engine: postgres == nil ? nil : "postgres"))
        let partial = output + ".partial"
        guard manager.createFile(atPath: partial, contents: nil) else { throw BackupError.cannotWrite(output) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: partial))
        do {
            let writer = TarArchive.Writer(handle)
            try writer.add(manifestName, data: manifest)
            for entry in files {
                guard let source = sources[entry.path] else { continue }
                try writer.add(entry.path, size: entry.size) { write in try chunks(of: source, write) }
            }
            try writer.finish()
            try handle.synchronize()
            try handle.close()
        } catch {
            try? handle.close()
            try? manager.removeItem(atPath: partial)
            throw error
        }
        if manager.fileExists(atPath: output) { try manager.removeItem(atPath: output) }
        try manager.moveItem(atPath: partial, toPath: output)
        return Summary(files: files.count, bytes: files.reduce(0) { $0 + $1.size }, migrations: migrations.count)
    }

    // MARK: - Restore

    /// Restores `archive` into `data`: every file checked against the manifest's size and
    /// SHA-256, the database against `PRAGMA integrity_check`, before anything is put in
    /// place. A directory that holds anything is refused unless `force` (then its database
    /// and images are replaced; stop the server first).
    ///
    /// With `postgres`, the archive must hold a dump, restored into that database, which must
    /// be empty (a new database: `--force` does not apply to it); the images go to `data`, or
    /// into `bucket` when given.
    public static func restore(
        archive: String, to data: String, postgres: String? = nil, bucket: S3Client? = nil, force: Bool, media: MediaFiles
    ) throws -> Summary {
        let manager = FileManager.default
        let existing = (try? manager.contentsOfDirectory(atPath: data)) ?? []
        guard existing.isEmpty || force else { throw BackupError.notEmpty(data) }
        let created = !manager.fileExists(atPath: data)
        try manager.createDirectory(atPath: data, withIntermediateDirectories: true)
        do {
            return try restore(archive: archive, into: data, postgres: postgres, bucket: bucket, manager: manager, media: media)
        } catch {
            // A refused archive leaves nothing behind.
            if created { try? manager.removeItem(atPath: data) }
            throw error
        }
    }

    private static func restore(
        archive: String, into data: String, postgres: String?, bucket: S3Client?, manager: FileManager, media: MediaFiles
    ) throws -> Summary {
        let staging = data + "/.restoring-\(UUID().uuidString)"
        try manager.createDirectory(atPath: staging + "/media", withIntermediateDirectories: true)
        defer { try? manager.removeItem(atPath: staging) }

        guard let handle = FileHandle(forReadingAtPath: archive) else { throw BackupError.cannotRead(archive) }
        defer { try? handle.close() }
        var reader = TarArchive.Reader(handle)
        let manifest = try readManifest(&reader)
        let copy = manifest.engine == "postgres" ? dumpName : databaseName
        guard manifest.engine == nil || manifest.engine == "postgres" else { throw BackupError.badManifest("it names an unknown database") }
        guard (copy == dumpName) == (postgres != nil) else { throw BackupError.wrongEngine(dump: copy == dumpName) }
        var expected = Dictionary(manifest.files.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        guard expected.count == manifest.files.count, expected[copy] != nil,
              manifest.files.allSatisfy({ $0.path == copy || ($0.path.hasPrefix("media/") && media.isImage(String($0.path.dropFirst(6)))) })
        else { throw BackupError.badManifest("its list of files is not one moim backup writes") }

        while case let (name, size)? = try reader.next() {
            guard let entry = expected.removeValue(forKey: name) else { throw BackupError.unexpected(name) }
            guard size == entry.size else { throw BackupError.checksum(name) }
            let path = staging + "/" + name
            guard manager.createFile(atPath: path, contents: nil) else { throw BackupError.cannotWrite(path) }
            let output = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            var digest = Crypto.SHA256()
            try reader.body(size: size) { chunk in
                chunk.withUnsafeBytes { digest.update($0) }
                try output.write(contentsOf: chunk)
            }
            try output.synchronize()
            try output.close()
            guard digest.hex() == entry.sha256 else { throw BackupError.checksum(name) }
        }
        if let missing = expected.keys.sorted().first { throw BackupError.missing(missing) }

        if let postgres {
            try load(staging + "/" + dumpName, into: postgres, migrations: manifest.migrations)
            try placeImages(from: staging + "/media", data: data, bucket: bucket, media: media)
            return Summary(files: manifest.files.count, bytes: manifest.files.reduce(0) { $0 + $1.size }, migrations: manifest.migrations.count)
        }
        let check = try AppDatabase.check(databaseAt: staging + "/" + databaseName)
        guard check.integrity == "ok" else { throw BackupError.integrity(check.integrity) }
        guard check.migrations == manifest.migrations else { throw BackupError.badManifest("its schema differs from the database's") }

        // In place: the old database (with its WAL) and images go, the checked ones come.
        // In a bucket first: a refusal there leaves the old site as it was.
        if let bucket { try placeImages(from: staging + "/media", data: data, bucket: bucket, media: media) }
        for name in [databaseName, databaseName + "-wal", databaseName + "-shm"] where manager.fileExists(atPath: data + "/" + name) {
            try manager.removeItem(atPath: data + "/" + name)
        }
        try manager.moveItem(atPath: staging + "/" + databaseName, toPath: data + "/" + databaseName)
        if bucket == nil { try placeImages(from: staging + "/media", data: data, bucket: nil, media: media) }
        return Summary(files: manifest.files.count, bytes: manifest.files.reduce(0) { $0 + $1.size }, migrations: manifest.migrations.count)
    }

    private static func readManifest(_ reader: inout TarArchive.Reader) throws -> Manifest {
        guard case let (name, size)? = try reader.next(), name == manifestName else { throw BackupError.badManifest("the archive does not start with one") }
        guard size <= 16 << 20 else { throw BackupError.badManifest("it is too large") }
        var data = Data()
        try reader.body(size: size) { data += $0 }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let manifest = try? decoder.decode(Manifest.self, from: data), manifest.format == 1 else {
            throw BackupError.badManifest("it cannot be read")
        }
        let known = Set(AppDatabase.knownMigrations)
        if let unknown = manifest.migrations.first(where: { !known.contains($0) }) {
            throw BackupError.newerSchema(unknown)
        }
        return manifest
    }
}
