import Foundation
import GRDB
import Hummingbird
import Mustache

/// The TechEmpower "Fortunes" test on Hummingbird 2 + swift-mustache + GRDB, written the way
/// Hummingbird's own entry in the TechEmpower suite is (an async route, a `MustacheTemplate`
/// rendered per request, an HTML response), but reading the same SQLite file as
/// `FortunesMoim`, through a read-only pool. The page and its rows answer the template's
/// lookups through `MustacheParent` (a switch on the name), as a Hummingbird expert writes
/// them, rather than letting swift-mustache reflect over them with `Mirror`.
/// `fortunes-hummingbird DATABASE PORT TEMPLATE`.
@main
struct FortunesHummingbird {
    static func main() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 4, let port = Int(arguments[2]) else {
            FileHandle.standardError.write(Data("usage: FortunesHummingbird DATABASE PORT TEMPLATE\n".utf8))
            exit(2)
        }
        var configuration = Configuration()
        configuration.readonly = true
        let database = try DatabasePool(path: arguments[1], configuration: configuration)
        let template = try MustacheTemplate(string: String(contentsOfFile: arguments[3], encoding: .utf8))
        let router = Router()
        router.get("fortunes") { _, _ -> HTML in
            var fortunes = try await database.read { db in
                try Row.fetchAll(db, sql: "SELECT id, message FROM Fortune").map { Fortune(id: $0[0], message: $0[1]) }
            }
            fortunes.append(Fortune(id: 0, message: "Additional fortune added at request time."))
            fortunes.sort { $0.message < $1.message }
            return HTML(text: template.render(FortunesPage(fortunes: fortunes)))
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "Hummingbird"))
        print("Fortunes on Hummingbird at http://127.0.0.1:\(port)/fortunes")
        try await app.runService()
    }
}

struct HTML: ResponseGenerator {
    let text: String

    func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

struct FortunesPage: MustacheParent {
    let fortunes: [Fortune]

    func child(named name: String) -> Any? {
        name == "fortunes" ? fortunes : nil
    }
}

struct Fortune: Sendable, MustacheParent {
    let id: Int
    let message: String

    func child(named name: String) -> Any? {
        switch name {
        case "id": id
        case "message": message
        default: nil
        }
    }
}
