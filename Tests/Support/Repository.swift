import Foundation

/// The repository this test was built from, for tests that read its sources, templates and
/// catalogs rather than running them.
public enum Repository {
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// The Swift files under `folder` (relative to the root), as paths relative to the root, sorted.
    public static func swiftFiles(under folder: String) -> [String] {
        let base = root + "/" + folder
        guard let walker = FileManager.default.enumerator(atPath: base) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted().map { folder + "/" + $0 }
    }

    public static func text(_ path: String) throws -> String {
        try String(contentsOfFile: root + "/" + path, encoding: .utf8)
    }
}
