import Formats
import Foundation
import HTTP

extension App {
    /// `GET /tiles/:z/:x/:y`: one map tile, from the cache or the tile server. A tile that
    /// cannot be had now is a quick 503 (the map shows its background there), never a wait.
    func tileShow(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let tiles,
              let z = request.parameters["z"].flatMap({ Checked.integer($0, in: 0...19) }),
              let x = request.parameters["x"].flatMap({ Checked.integer($0, in: 0...(1 << 19)) }),
              let y = request.parameters["y"].flatMap({ Checked.integer($0, in: 0...(1 << 19)) }),
              let answer = tiles.tile(z: z, x: x, y: y, for: AddressKey.of(request.remoteAddress))
        else { throw HTTPError(.notFound) }
        switch answer {
        case .tile(let bytes, let type):
            var headers = HTTPHeaders()
            headers.set("Content-Type", type)
            headers.set("Cache-Control", "public, max-age=86400")
            headers.set("X-Content-Type-Options", "nosniff")
            return HTTPResponse(status: .ok, headers: headers, body: bytes)
        case .unavailable:
            var headers = HTTPHeaders()
            headers.set("Cache-Control", "no-store")
            headers.set("Retry-After", "30")
            return HTTPResponse(status: .serviceUnavailable, headers: headers)
        }
    }
}
