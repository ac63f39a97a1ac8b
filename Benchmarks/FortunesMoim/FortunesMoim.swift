import CompiledHTML
import Foundation
import GRDB
import HTTP

/// The TechEmpower "Fortunes" test on Moim's own stack: its HTTP server, a template compiled
/// by the CompileTemplates plugin, a GRDB read. `fortunes-moim DATABASE PORT` creates the
/// table in DATABASE if it is missing (the Hummingbird server reads the same file) and serves
/// `GET /fortunes`. The rules: fetch every row, add one at request time, sort by message,
/// escape everything, UTF-8.
@main
struct FortunesMoim {
    static func main() throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 3, let port = Int(arguments[2]) else {
            FileHandle.standardError.write(Data("usage: FortunesMoim DATABASE PORT\n".utf8))
            exit(2)
        }
        let database = try DatabasePool(path: arguments[1])
        try createTable(database)
        var configuration = HTTPServer.Configuration()
        configuration.port = port
        configuration.eventLoops = 1
        configuration.handlerThreads = 4
        configuration.accessLog = false
        let server = HTTPServer(configuration: configuration, handler: FortunesHandler(database: database))
        try server.start()
        print("Fortunes on Moim's stack at http://127.0.0.1:\(server.port)/fortunes")
        server.wait()
    }

    /// The twelve rows of the published test.
    static func createTable(_ database: DatabasePool) throws {
        try database.write { db in
            guard try !db.tableExists("Fortune") else { return }
            try db.execute(sql: "CREATE TABLE Fortune (id INTEGER PRIMARY KEY, message TEXT NOT NULL)")
            let messages = [
                "fortune: No such file or directory",
                "A computer scientist is someone who fixes things that aren't broken.",
                "After enough decimal places, nobody gives a damn.",
                "A bad random number generator: 1, 1, 1, 1, 1, 4.33e+67, 1, 1, 1",
                "A computer program does what you tell it to do, not what you want it to do.",
                "Emacs is a nice operating system, but I prefer UNIX. — Tom Christaensen",
                "Any program that runs right is obsolete.",
                "A list is only as strong as its weakest link. — Donald Knuth",
                "Feature: A bug with seniority.",
                "Computers make very fast, very accurate mistakes.",
                #"<script>alert("This should not be displayed in a browser alert box.");</script>"#,
                "フレームワークのベンチマーク",
            ]
            for (index, message) in messages.enumerated() {
                try db.execute(sql: "INSERT INTO Fortune (id, message) VALUES (?, ?)", arguments: [index + 1, message])
            }
        }
    }
}

struct FortunesHandler: HTTPHandler {
    let database: DatabasePool

    func handle(_ request: HTTPRequest) -> HTTPResponse {
        guard request.path == "/fortunes" else { return HTTPResponse(status: .notFound, contentType: "text/plain", body: "not found") }
        do {
            var fortunes = try database.read { db in
                try Fortune.fetchAll(db.cachedStatement(sql: "SELECT id, message FROM Fortune"))
            }
            fortunes.append(Fortune(id: 0, message: "Additional fortune added at request time."))
            fortunes.sort { $0.message < $1.message }
            var writer = HTMLWriter(languageIndex: 0)
            FortunesView(fortunes: fortunes).render(into: &writer)
            return HTTPResponse(status: .ok, headers: HTTPHeaders([("Content-Type", "text/html; charset=utf-8"), ("Server", "Moim")]),
                                body: writer.bytes)
        } catch {
            return HTTPResponse(status: .internalServerError, contentType: "text/plain", body: "\(error)")
        }
    }
}

struct FortunesView {
    static let template = "fortunes"
    let fortunes: [Fortune]
}

struct Fortune: FetchableRecord {
    let id: Int
    let message: String

    init(id: Int, message: String) {
        self.id = id
        self.message = message
    }

    init(row: Row) throws {
        id = try row.decode(atIndex: 0)
        message = try row.decode(atIndex: 1)
    }
}
