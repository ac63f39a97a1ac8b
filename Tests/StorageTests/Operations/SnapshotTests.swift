import Foundation
import Testing
import TestSupport
@testable import Storage

/// `moim backup`'s copy of a SQLite site (`AppDatabase.snapshot`) and `moim restore`'s check of
/// one (`AppDatabase.check`): the copy is the database as it was, whole, in one file.
struct SnapshotTests {
    @Test func aSnapshotHoldsTheSiteAsItWasAndChecksSound() throws {
        // Given a site on SQLite with a member and a post
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("moim-snapshot-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let database = try AppDatabase.open(directory: folder)
        let mina = try database.members("mina")[0]
        let post = try database.posts.createPost(authorID: mina, content: PostContent(body: "Long run by the river", bodyHTML: "<p>Long run by the river</p>",
                                                                          tags: [], mentionedUserIDs: []), photos: [])

        // When it is copied while open, and the copy checked
        let copy = folder + "/copy.sqlite"
        let migrations = try AppDatabase.snapshot(databaseAt: folder + "/moim.sqlite", to: copy)
        let checked = try AppDatabase.check(databaseAt: copy)

        // Then the copy is sound, knows every migration, is one file, and holds the site
        #expect(checked.integrity == "ok")
        #expect(migrations == AppDatabase.knownMigrations && checked.migrations == migrations)
        #expect(!FileManager.default.fileExists(atPath: copy + "-wal"))
        let restored = try AppDatabase.open(directory: try restoredFolder(from: copy))
        #expect(try restored.accounts.user(username: "mina")?.id == mina)
        #expect(try restored.read { db in try db.record(Post.self, id: post.id) }?.body == "Long run by the river")
    }

    @Test func aFileThatIsNotADatabaseIsAnErrorNotAVerdict() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("moim-not-a-database-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(repeating: 0x41, count: 8_192)))
        #expect(throws: (any Error).self) { try AppDatabase.check(databaseAt: path) }
    }

    /// A folder holding `copy` as its `moim.sqlite`, as `moim restore` leaves it.
    private func restoredFolder(from copy: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("moim-restored-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: copy, toPath: folder + "/moim.sqlite")
        return folder
    }
}
