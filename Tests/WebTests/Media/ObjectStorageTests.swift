import Foundation
import HTTP
import Network
import Storage
import TestSupport
import Testing
@testable import Web

/// Images in an S3-compatible bucket (moto's server on loopback), shared by two servers of
/// one site: what one stores, the other serves, with the folder's headers.
struct ObjectStorageTests {
    private func site(bucket: String, database: AppDatabase? = nil) throws -> TestSite {
        var configuration = TestSite.configuration()
        configuration.mediaBucket = try TestObjectStore.client(for: bucket)
        return try TestSite(configuration: configuration, database: database)
    }

    private func photo() throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: TestSite.root + "/Tests/WebTests/Fixtures/gps.jpg")))
    }

    @Test func aPhotoPostedOnOneServerIsServedByTheOtherAndGoesWithItsPost() throws {
        // Given two servers of one site sharing a database and a bucket
        let bucket = try TestObjectStore.freshBucket()
        let first = try site(bucket: bucket)
        let second = try site(bucket: bucket, database: first.database)
        let mina = first.members("mina")[0]

        // When Mina posts a photo through the first
        let created = mina.postMultipart("/posts", [("body", "Sunrise run")], files: [("photos", "run.jpg", try photo())], from: "/posts/new")
        #expect(created.status == .seeOther)
        let post = try #require(created.headers["Location"])
        let path = String(try #require(mina.get(post).bodyText.firstMatch(of: /src="(\/media\/[A-Za-z0-9_-]{22}\.jpg)"/)?.1))

        // Then a visitor of the second gets it, with the headers the folder gives
        let visitor = second.browser()
        let image = visitor.get(path)
        #expect(image.status == .ok)
        #expect(image.body.starts(with: [0xFF, 0xD8]) && image.body.count > 500)
        #expect(image.headers["Content-Type"] == "image/jpeg")
        #expect(image.headers["Cache-Control"] == "public, max-age=31536000, immutable")
        #expect(image.headers["Content-Security-Policy"] == "default-src 'none'; sandbox")
        #expect(image.headers["X-Content-Type-Options"] == "nosniff")
        // And the GPS position the upload carried is not in it
        #expect(!image.body.starts(with: [0xFF, 0xD8, 0xFF, 0xE1]))
        let etag = try #require(image.headers["ETag"])
        #expect(visitor.get(path, headers: [("If-None-Match", etag)]).status == .notModified)
        #expect(!FileManager.default.fileExists(atPath: first.app.configuration.mediaDirectory + "/" + path.dropFirst(7)))

        // When she deletes the post on the second, the image is gone from both
        let id = try #require(post.split(separator: "/").last)
        let deleteOn = second.browser()
        deleteOn.cookies = mina.cookies
        #expect(deleteOn.post("/posts/\(id)/delete", [], from: post).status == .seeOther)
        #expect(first.browser().get(path).status == .notFound)
        #expect(try TestObjectStore.client(for: bucket).names().isEmpty)
    }

    @Test func aStoreThatIsDownIsA503AndNothingHalfWritten() throws {
        var configuration = TestSite.configuration()
        let location = try #require(S3Location(url: "s3://moim-photos/media/"))
        configuration.mediaBucket = S3Client(
            location: location, region: "us-east-1", endpoint: HTTPEndpoint("http://127.0.0.1:1"),
            credentials: TestObjectStore.credentials, timeout: 2)
        let site = try TestSite(configuration: configuration)
        let mina = site.members("mina")[0]

        let refused = mina.postMultipart("/posts", [("body", "Lost photo")], files: [("photos", "run.jpg", try photo())], from: "/posts/new")
        #expect(refused.status == .serviceUnavailable)
        #expect(refused.headers["Retry-After"] == "5")
        #expect(!mina.get("/").bodyText.contains("Lost photo"))
        #expect(mina.get("/media/AAAAAAAAAAAAAAAAAAAAAA.jpg").status == .serviceUnavailable)
        // A name the store never makes is not even asked for.
        #expect(mina.get("/media/..%2Fsecret.jpg").status == .notFound)
    }

    @Test func aBackupTakesTheBucketsImagesAndARestorePutsThemIntoAnother() throws {
        let data = NSTemporaryDirectory() + "moim-s3-backup-\(UUID().uuidString)"
        let bucket = try TestObjectStore.freshBucket()
        var configuration = TestSite.configuration()
        configuration.mediaBucket = try TestObjectStore.client(for: bucket)
        let database = try AppDatabase.open(directory: data)
        let original = try TestSite(configuration: configuration, database: database)
        let mina = original.members("mina")[0]
        let created = mina.postMultipart("/posts", [("body", "Backed up")], files: [("photos", "run.jpg", try photo())], from: "/posts/new")
        let post = try #require(created.headers["Location"])
        let path = String(try #require(mina.get(post).bodyText.firstMatch(of: /src="(\/media\/[A-Za-z0-9_-]{22}\.jpg)"/)?.1))
        let image = mina.get(path).body

        let archive = data + ".tar"
        let summary = try Backup.write(data: data, bucket: configuration.mediaBucket, to: archive)
        #expect(summary.files == 3)  // the database, the photo and its WebP twin (it is narrower than any variant)

        let restoredData = data + "-restored"
        let other = try TestObjectStore.client(for: try TestObjectStore.freshBucket())
        _ = try Backup.restore(archive: archive, to: restoredData, bucket: other, force: false)
        #expect(!FileManager.default.fileExists(atPath: restoredData + "/media/" + path.dropFirst(7)))
        configuration.mediaBucket = other
        let restored = try TestSite(configuration: configuration, database: try AppDatabase.open(directory: restoredData))
        #expect(restored.browser().get(path).body == image)
    }
}
