import Formats
import Foundation
import HTTP
import Storage

/// The service worker's script with the release's revision written in: a hash of the static
/// files it keeps, so that a release that changes any of them is a new worker, which drops
/// the old copies.
struct ServiceWorkerScript: Sendable {
    let body: [UInt8]
    let revision: String

    init(publicDirectory: String) {
        let script = FileManager.default.contents(atPath: publicDirectory + "/sw.js").map { String(decoding: $0, as: UTF8.self) } ?? ""
        var bytes = Array(script.utf8)
        for path in Self.keptFiles(script) { bytes += (FileManager.default.contents(atPath: publicDirectory + path)).map { [UInt8]($0) } ?? [] }
        revision = Crypto.sha256(bytes).prefix(8).map { String(format: "%02x", $0) }.joined()
        body = Array(script.replacingOccurrences(of: "__REVISION__", with: revision).utf8)
    }

    /// The paths in the worker's `const FILES = ["/offline.html", …];` line: what it keeps.
    static func keptFiles(_ script: String) -> [String] {
        guard let line = script.split(separator: "\n").first(where: { $0.hasPrefix("const FILES = [") }) else { return [] }
        return line.split(separator: "\"").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }.filter { $0.hasPrefix("/") && !$0.contains("..") }
    }
}

extension App {
    /// `GET /sw.js`: never cached by the browser's HTTP cache, so a release is seen at once.
    func serviceWorker(_ request: HTTPRequest) -> HTTPResponse {
        var response = HTTPResponse(status: .ok, headers: HTTPHeaders([("Content-Type", "text/javascript; charset=utf-8")]), body: serviceWorkerScript.body)
        response.headers.set("Cache-Control", "no-cache")
        response.headers.set("Service-Worker-Allowed", "/")
        return response
    }

    /// `GET /manifest.webmanifest`: Moim on the home screen, named in the visitor's language.
    func manifest(_ context: RequestContext) throws -> HTTPResponse {
        let language = context.language
        let icons = [("/icons/icon-192.png", "192x192", "any"), ("/icons/icon-512.png", "512x512", "any"), ("/icons/icon-maskable-512.png", "512x512", "maskable")]
            .map { "{\"src\":\"\($0.0)\",\"sizes\":\"\($0.1)\",\"type\":\"image/png\",\"purpose\":\"\($0.2)\"}" }.joined(separator: ",")
        let json = """
            {"name":\(Self.jsonString(localizer.text(.home_screen.name, language))),"short_name":"Moim",\
            "description":\(Self.jsonString(localizer.text(.home_screen.description, language))),"lang":"\(language.rawValue)",\
            "id":"/","start_url":"/","scope":"/","display":"standalone","theme_color":"#1f3d7a","background_color":"#f5f7fb",\
            "icons":[\(icons)]}
            """
        var response = HTTPResponse(status: .ok, headers: HTTPHeaders([("Content-Type", "application/manifest+json; charset=utf-8")]), body: Array(json.utf8))
        response.headers.set("Vary", "Accept-Language, Cookie")
        return response
    }
}
