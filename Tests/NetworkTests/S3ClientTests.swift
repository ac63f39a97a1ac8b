import Foundation
import Network
import TestSupport
import Testing

/// The object store calls against a real S3 implementation (moto's server on loopback).
struct S3ClientTests {
    @Test func putGetListAndDeleteAnObject() throws {
        // Given an empty bucket
        let client = try TestObjectStore.client(for: try TestObjectStore.freshBucket())
        #expect(try client.names() == [])

        // When two images are stored
        let photo = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try client.put("one.jpg", body: photo, contentType: "image/jpeg")
        try client.put("two.png", body: [1, 2, 3], contentType: "image/png")

        // Then they come back byte for byte, with their type, and are listed
        let answer = try #require(try client.get("one.jpg"))
        #expect(answer.status == 200)
        #expect(answer.body == photo)
        #expect(answer.header("Content-Type") == "image/jpeg")
        #expect(try client.names().sorted() == ["one.jpg", "two.png"])

        // And a browser that has it gets a 304 when it asks again with its ETag
        let etag = try #require(answer.header("ETag"))
        let again = try #require(try client.get("one.jpg", conditions: [("If-None-Match", etag)]))
        #expect(again.status == 304)
        #expect(again.body.isEmpty)

        // When one is deleted, it is gone, and deleting it again is no error
        try client.delete("one.jpg")
        #expect(try client.get("one.jpg") == nil)
        try client.delete("one.jpg")
        #expect(try client.names() == ["two.png"])
    }

    @Test func listingFollowsContinuationPages() throws {
        let client = try TestObjectStore.client(for: try TestObjectStore.freshBucket(prefix: "many/"))
        for index in 0..<25 { try client.put("n\(index).gif", body: [UInt8(index)], contentType: "image/gif") }
        let names = try client.names(pageSize: 10)
        #expect(Set(names) == Set((0..<25).map { "n\($0).gif" }))
        #expect(names.count == 25)
    }

    @Test func wrongBucketIsARefusalNotATrap() throws {
        let client = try TestObjectStore.client(for: "s3://no-such-bucket-here/x/")
        #expect(throws: S3Error.self) { try client.put("a.jpg", body: [1], contentType: "image/jpeg") }
    }

    @Test func aStoreThatIsDownIsUnreachable() throws {
        let closed = try #require(HTTPEndpoint("http://127.0.0.1:1"))
        let client = S3Client(
            location: try #require(S3Location(url: "s3://bucket/p")), region: "us-east-1", endpoint: closed,
            credentials: TestObjectStore.credentials, timeout: 2)
        #expect {
            try client.get("a.jpg")
        } throws: { error in
            if case .unreachable = error as? S3Error { return true }
            return false
        }
    }

    @Test func locationsAreChecked() {
        #expect(S3Location(url: "s3://moim-photos/media") == S3Location(url: "s3://moim-photos/media/"))
        #expect(S3Location(url: "s3://moim-photos")?.prefix == "")
        #expect(S3Location(url: "s3://moim-photos/a/b/")?.prefix == "a/b/")
        for bad in ["s3://", "s3://ab", "s3://Upper", "s3://-dash", "https://x/y", "s3://ok-bucket/a\nb", "s3://" + String(repeating: "a", count: 64)] {
            #expect(S3Location(url: bad) == nil, "\(bad)")
        }
    }
}
