import Foundation
import Network

/// Where map tiles come from: an XYZ URL template such as
/// `https://tile.openstreetmap.org/{z}/{x}/{y}.png`, and the credit its licence asks for.
public struct TileSource: Sendable {
    public let endpoint: HTTPEndpoint
    /// The path and query with `{z}`, `{x}` and `{y}` in it.
    let pathTemplate: String
    public let attribution: String
    /// Longest wait for one tile, in seconds; past it the map shows its background there.
    public var timeout = 3
    /// Most bytes the disk cache holds.
    public var cacheSize = 256 << 20

    /// nil unless `template` is an http(s) URL whose path holds each of `{z}`, `{x}` and `{y}`.
    public init?(template: String, attribution: String) {
        guard let slash = template.firstIndex(of: "/", after: template.hasPrefix("https://") ? 8 : 7),
              let endpoint = HTTPEndpoint(String(template[..<slash])) else { return nil }
        let path = String(template[slash...])
        guard ["{z}", "{x}", "{y}"].allSatisfy(path.contains), path.utf8.count <= 1000,
              path.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else { return nil }
        self.endpoint = endpoint
        pathTemplate = path
        self.attribution = attribution
    }

    /// The request target for one tile.
    func target(z: Int, x: Int, y: Int) -> String {
        pathTemplate.replacingOccurrences(of: "{z}", with: String(z))
            .replacingOccurrences(of: "{x}", with: String(x))
            .replacingOccurrences(of: "{y}", with: String(y))
    }
}

extension String {
    /// The first `character` at or after the `offset`th character.
    fileprivate func firstIndex(of character: Character, after offset: Int) -> Index? {
        guard let start = index(startIndex, offsetBy: offset, limitedBy: endIndex) else { return nil }
        return self[start...].firstIndex(of: character)
    }
}
