import Foundation

enum TestSupportPaths {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    /// The venv `Tests/Doubles/object-store` makes, with moto and botocore.
    static let s3Python = root + "/.build/s3-venv/bin/python"

    static func fixture(_ name: String) -> String {
        root + "/Tests/NetworkTests/Fixtures/" + name
    }
}
