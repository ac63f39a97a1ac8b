import Foundation
import Network

/// A fresh bucket for one test in the throwaway S3 store at `MOIM_TEST_S3_ENDPOINT`
/// (moto's server, which `script/test` starts with `Tests/Doubles/object-store`).
public enum TestObjectStore {
    public static let credentials = S3Credentials(accessKeyID: "moim-test", secretAccessKey: "moim-test-secret")
    public static let region = "us-east-1"

    public static var endpoint: HTTPEndpoint? {
        ProcessInfo.processInfo.environment["MOIM_TEST_S3_ENDPOINT"].flatMap(HTTPEndpoint.init)
    }

    /// Creates a new, empty bucket and returns its `s3://` URL (with `prefix`).
    public static func freshBucket(prefix: String = "media/") throws -> String {
        guard let endpoint else { throw TestObjectStoreError.noServer }
        let bucket = "test-" + UUID().uuidString.lowercased().prefix(18)
        let signer = S3Signer(credentials: credentials, region: region)
        let headers = signer.signedHeaders(method: "PUT", host: endpoint.hostHeader, path: "/" + bucket, payload: [], date: Date())
        let answer = try HTTPClient(endpoint: endpoint).send("PUT", "/" + bucket, headers: headers)
        guard answer.status == 200 else { throw TestObjectStoreError.refused(answer.status) }
        return "s3://\(bucket)/\(prefix)"
    }

    public static func client(for url: String) throws -> S3Client {
        guard let endpoint, let location = S3Location(url: url) else { throw TestObjectStoreError.noServer }
        return S3Client(location: location, region: region, endpoint: endpoint, credentials: credentials)
    }
}

public enum TestObjectStoreError: Error {
    case noServer
    case refused(Int)
}
