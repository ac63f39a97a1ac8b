import Formats
import Foundation
import HTTP
import Synchronization
import Testing
import TestSupport
import Storage
@testable import Web

/// `moim backup` and `moim restore` on real files, while the site writes.
@Suite struct BackupTests {
    private func temporary(_ name: String) -> String {
        NSTemporaryDirectory() + "moim-\(name)-\(UUID().uuidString)"
    }

    /// A site on files in `data`, its images in `data/media` as `moim serve` keeps them.
    private func site(_ data: String) throws -> TestSite {
        var configuration = TestSite.configuration()
        configuration.mediaDirectory = data + "/media"
        return try TestSite(configuration: configuration, database: try AppDatabase.open(directory: data))
    }

    @Test func aBackupTakenWhileWritingHoldsEveryWriteAcknowledgedBeforeItBegan() throws {
        let data = temporary("backup-load")
        let database = try AppDatabase.open(directory: data)
        let author = try database.accounts.createUser(User(username: "mina", email: "mina@example.com", passwordHash: "x", displayName: "Mina"))
        let acknowledged = Mutex<[Int64]>([])
        let stop = Atomic(false)
        // Two writers commit posts as fast as they can, before, during and after the backup.
        let writers = (0..<2).map { number in
            Thread {
                var count = 0
                while !stop.load(ordering: .relaxed) {
                    count += 1
                    guard let post = try? database.posts.createPost(
                        authorID: author.storedID, content: PostContent(body: "run \(number)-\(count)", bodyHTML: "<p>run</p>", tags: [], mentionedUserIDs: []),
                        photos: []), let id = post.id else { continue }
                    acknowledged.withLock { $0.append(id) }
                }
            }
        }
        writers.forEach { $0.start() }
        Thread.sleep(forTimeInterval: 0.5)
        let before = acknowledged.withLock { Set($0) }
        let archive = temporary("backup") + ".tar"
        _ = try Backup.write(data: data, to: archive)
        stop.store(true, ordering: .relaxed)
        Thread.sleep(forTimeInterval: 0.2)
        try database.close()
        #expect(before.count > 50)

        let restored = temporary("restored")
        _ = try Backup.restore(archive: archive, to: restored, force: false)
        let copy = try AppDatabase.open(directory: restored)
        defer { try? copy.close() }
        #expect(before.isSubset(of: try copy.allPostIDs()))
        #expect(try copy.integrityCheck() == "ok")
    }

    @Test func theRestoredSiteServesTheSameContentAndImages() throws {
        let data = temporary("backup-site")
        let original = try site(data)
        let mina = original.members("mina")[0]
        let created = mina.postMultipart("/posts", [("body", "Sunrise run #한강러닝")], files: [("photos", "run.jpg", Array(try fixture("gps.jpg")))], from: "/posts/new")
        let post = try #require(created.headers["Location"])
        let page = mina.get(post).bodyText
        let photo = try #require(page.firstMatch(of: /src="(\/media\/[A-Za-z0-9_-]{22}\.jpg)"/)?.1)
        let image = mina.get(String(photo)).body

        let archive = temporary("backup") + ".tar"
        let summary = try Backup.write(data: data, to: archive)
        #expect(summary.files == 3)  // the database, the photo and its WebP twin (it is narrower than any variant)
        let restored = temporary("restored")
        _ = try Backup.restore(archive: archive, to: restored, force: false)
        let copy = try site(restored)
        let visitor = copy.browser()
        #expect(visitor.get(post).bodyText.contains("Sunrise run"))
        #expect(visitor.get(String(photo)).body == image)
        // The member can sign in on the restored site.
        #expect(copy.browser().logIn("mina").status == .seeOther)
    }

    @Test func aDamagedIncompleteOrForeignArchiveIsRefusedAndLeavesNothing() throws {
        let data = temporary("backup-damage")
        let database = try AppDatabase.open(directory: data)
        _ = try database.accounts.createUser(User(username: "mina", email: "mina@example.com", passwordHash: "x", displayName: "Mina"))
        try database.close()
        let archive = temporary("backup") + ".tar"
        _ = try Backup.write(data: data, to: archive)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: archive))

        func refuses(_ archiveBytes: Data) throws -> Bool {
            let path = temporary("bad") + ".tar"
            try archiveBytes.write(to: URL(fileURLWithPath: path))
            let target = temporary("target")
            defer { try? FileManager.default.removeItem(atPath: target) }
            do {
                _ = try Backup.restore(archive: path, to: target, force: false)
                return false
            } catch {
                return !FileManager.default.fileExists(atPath: target)
            }
        }
        var flipped = bytes
        // A byte inside the database's content (after the manifest's blocks and the database's header).
        let manifestBlocks = 1 + (try TarArchive.parse(bytes.prefix(512)).size + 511) / 512
        flipped[(manifestBlocks + 1) * 512 + 200] ^= 0x01
        #expect(try refuses(flipped))
        #expect(try refuses(bytes.prefix(bytes.count / 2)))
        #expect(try refuses(Data("not a tar".utf8) + Data(count: 1024)))

        // A backup from a newer Moim.
        let path = temporary("newer") + ".tar"
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        let manifest = #"{"format": 1, "createdAt": "2026-11-24T00:00:00Z", "migrations": ["v99 from the future"], "files": []}"#
        try TarArchive.Writer(handle).add("manifest.json", data: Data(manifest.utf8))
        try TarArchive.Writer(handle).finish()
        try handle.close()
        #expect(throws: BackupError.newerSchema("v99 from the future")) { try Backup.restore(archive: path, to: temporary("t"), force: false) }

        // A directory with a site in it needs --force.
        #expect(throws: BackupError.notEmpty(data)) { try Backup.restore(archive: archive, to: data, force: false) }
        _ = try Backup.restore(archive: archive, to: data, force: true)
        #expect(try AppDatabase.check(databaseAt: data + "/moim.sqlite").integrity == "ok")
    }
}

/// `moim backup` and `moim restore` of a site on PostgreSQL: `pg_dump` while it writes, and
/// `pg_restore` into a new database, images beside.
@Suite(.enabled(if: TestSupport.TestDatabase.onPostgres, "backs up PostgreSQL (TEST_DB=postgres)"))
struct PostgresBackupTests {
    @Test func aDumpTakenWhileWritingRestoresIntoANewDatabaseWithItsImages() throws {
        let data = NSTemporaryDirectory() + "moim-pg-backup-\(UUID().uuidString)"
        let url = try TestSupport.TestDatabase.freshPostgresURL()
        var configuration = TestSite.configuration()
        configuration.mediaDirectory = data + "/media"
        let site = try TestSite(configuration: configuration, database: try AppDatabase.open(postgres: url, connections: 4))
        let mina = site.browser()
        mina.signUp(username: "mina")
        let created = mina.postMultipart("/posts", [("body", "Sunrise run")], files: [("photos", "run.jpg", Array(try fixture("gps.jpg")))], from: "/posts/new")
        let post = try #require(created.headers["Location"])
        let image = try #require(mina.get(post).bodyText.firstMatch(of: /src="\/media\/([A-Za-z0-9_-]{22}\.jpg)"/)?.1)
        let stop = Atomic(false)
        let database = site.database, author = try #require(try site.database.accounts.user(username: "mina")?.id)
        let writer = Thread {
            var count = 0
            while !stop.load(ordering: .relaxed) {
                count += 1
                _ = try? database.posts.createPost(authorID: author, content: PostContent(body: "run \(count)", bodyHTML: "<p>run</p>", tags: [], mentionedUserIDs: []),
                                             photos: [])
            }
        }
        writer.start()
        Thread.sleep(forTimeInterval: 0.3)
        let archive = data + ".tar"
        let written = try Backup.write(data: data, postgres: url, to: archive)
        stop.store(true, ordering: .relaxed)
        #expect(written.files == 3)  // the dump, the photo and its WebP twin

        let server = try #require(ProcessInfo.processInfo.environment["MOIM_TEST_POSTGRES_URL"])
        let empty = try AppDatabase.createPostgresDatabase(named: "restored_\(UUID().uuidString.prefix(8).lowercased())", server: server)
        let restoredData = data + "-restored"
        #expect(throws: BackupError.wrongEngine(dump: true)) { try Backup.restore(archive: archive, to: restoredData + "-sqlite", force: false) }
        _ = try Backup.restore(archive: archive, to: restoredData, postgres: empty, force: false)
        #expect(throws: BackupError.notEmptyDatabase) { try Backup.restore(archive: archive, to: restoredData + "-again", postgres: empty, force: false) }
        configuration.mediaDirectory = restoredData + "/media"
        let restored = try TestSite(configuration: configuration, database: try AppDatabase.open(postgres: empty, connections: 4))
        let visitor = restored.browser()
        #expect(visitor.get(post).bodyText.contains("Sunrise run"))
        #expect(visitor.get("/media/" + image).status == .ok)
    }

    private func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: TestSite.root + "/Tests/WebTests/Fixtures/" + name))
    }
}
