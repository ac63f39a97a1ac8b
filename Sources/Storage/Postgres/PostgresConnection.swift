import CLibpq
import Dispatch
import Foundation

/// One connection to PostgreSQL through libpq, used by one thread at a time: statements are
/// prepared once per connection (named by the order they were first used) and answer in
/// binary, decoded by position (`PostgresRow`).
///
/// Parameters go as text and the server reads each as the type the statement gives it, as
/// `psql` would; only `bytea` goes as binary. Statements are written with SQLite's `?` and
/// `?N` placeholders, turned into `$N` here (`PostgresSQL.numbered`).
final class PostgresConnection: @unchecked Sendable {
    private let handle: OpaquePointer
    /// Longest wait for the server's answer to one command, in milliseconds (nil: as long as
    /// it takes). Past it the connection is given up: a server that hangs (stopped, cut off,
    /// or waiting for a standby that is gone) holds a page for this long, not for ever.
    private let answerTimeout: Int32?
    /// Set when an answer did not come in time: the connection is in an unknown state.
    private var abandoned = false
    private var statements: [String: PreparedStatement] = [:]
    /// Extension types whose values travel as text does (`citext`), found when first met.
    private var textTypes: Set<Oid> = []
    private var otherTypes: Set<Oid> = []

    private struct PreparedStatement {
        let name: String
        let parameterCount: Int
    }

    /// Connects with `url` (`postgres://…`, `postgresql://…` or libpq's `key=value` form),
    /// handed to libpq as it is, but for `overrides` (libpq keywords such as `host`, which win
    /// over the URL's). Unless the URL says otherwise, giving up after 5 seconds.
    init(url: String, answerTimeout: Int32? = nil, overrides: [(keyword: String, value: String)] = []) throws(PostgresError) {
        self.answerTimeout = answerTimeout
        func cStrings(_ strings: [String]) -> [UnsafePointer<CChar>?] { strings.map { UnsafePointer(strdup($0)) } + [nil] }
        let keywords = cStrings(["connect_timeout", "dbname"] + overrides.map(\.keyword))
        let values = cStrings(["5", url] + overrides.map(\.value))
        defer { (keywords + values).forEach { free(UnsafeMutablePointer(mutating: $0)) } }
        // A dbname that is a URL or key=value pairs is expanded, and what it sets wins.
        guard let handle = PQconnectdbParams(keywords, values, 1) else { throw .connection("out of memory") }
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = Self.message(PQerrorMessage(handle))
            PQfinish(handle)
            throw .connection(message)
        }
        self.handle = handle
        // Text in and out is UTF-8 whatever the server's default; times are read in binary
        // (UTC), and `now()` or a date printed by the server is UTC too. Notices ("already
        // exists, skipping") would go to standard error line by line. One plan per statement,
        // as SQLite keeps: the statements are written for any value of their parameters, and
        // planning each run anew (PostgreSQL's choice when a value such as a visitor's NULL
        // makes a custom plan look cheaper) cost ~0.2 ms a page.
        try execute("""
            SET client_encoding = 'UTF8'; SET TimeZone = 'UTC'; SET client_min_messages = warning;
            SET plan_cache_mode = force_generic_plan
            """)
    }

    deinit {
        PQfinish(handle)
    }

    /// How many commands the server has answered on this connection.
    private(set) var answers = 0

    /// The `PrimaryFence` generation it was opened in (0 without a fence).
    var generation: UInt64 = 0

    /// The first column of the first row as text, or nil when there is none or it is NULL.
    func text(_ sql: String) throws -> String? {
        var text: String?
        try run(sql, []) { row in text = row.isNull(atIndex: 0) ? nil : try row.string(atIndex: 0) }
        return text
    }

    /// False once the server has gone away or the connection broke: the pool drops it.
    var isUsable: Bool { !abandoned && PQstatus(handle) == CONNECTION_OK }

    /// True inside a transaction (even one a failed statement has ended in error).
    var inTransaction: Bool { PQtransactionStatus(handle) != PQTRANS_IDLE }

    /// The payloads of the notifications on `channel` (after `LISTEN`), waiting up to `milliseconds`
    /// for the first; none if none came. Throws once the connection is lost.
    func notifications(on channel: String, waiting milliseconds: Int32) throws(PostgresError) -> [String] {
        var payloads: [String] = []
        func take() throws(PostgresError) {
            guard PQconsumeInput(handle) == 1 else { throw .connection(Self.message(PQerrorMessage(handle))) }
            while let notification = PQnotifies(handle) {
                defer { PQfreemem(notification) }
                if String(cString: notification.pointee.relname) == channel {
                    payloads.append(String(cString: notification.pointee.extra))
                }
            }
        }
        try take()
        guard payloads.isEmpty else { return payloads }
        var socket = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        let ready = poll(&socket, 1, milliseconds)
        guard ready >= 0 || errno == EINTR else { throw .connection("poll: \(String(cString: strerror(errno)))") }
        if ready > 0 { try take() }
        guard PQstatus(handle) == CONNECTION_OK else { throw .connection(Self.message(PQerrorMessage(handle))) }
        return payloads
    }

    /// Runs `sql` (no placeholders, several statements allowed), e.g. `BEGIN` or a schema.
    func execute(_ sql: String) throws(PostgresError) {
        let result = try answer(PQsendQuery(handle, sql))
        defer { PQclear(result) }
        try check(result, sql)
    }

    /// The answer to the command just sent (`sent` is libpq's 1 for sent): its first error, or
    /// else its last result, as `PQexec` gives them; waiting at most `answerTimeout`.
    private func answer(_ sent: CInt) throws(PostgresError) -> OpaquePointer? {
        guard !abandoned else { throw .connection("an earlier command got no answer in time") }
        guard sent == 1 else { throw .connection(Self.message(PQerrorMessage(handle))) }
        let deadline = answerTimeout.map { DispatchTime.now() + .milliseconds(Int($0)) }
        var failure: OpaquePointer?, last: OpaquePointer?
        do throws(PostgresError) {
            while true {
                while PQisBusy(handle) == 1 {
                    try waitForInput(until: deadline)
                    guard PQconsumeInput(handle) == 1 else { throw .connection(Self.message(PQerrorMessage(handle))) }
                }
                guard let result = PQgetResult(handle) else { break }
                switch PQresultStatus(result) {
                case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
                    PQclear(last)
                    last = result
                default:
                    if failure == nil { failure = result } else { PQclear(result) }
                }
            }
        } catch {
            PQclear(failure)
            PQclear(last)
            throw error
        }
        guard let failure else { return last }
        PQclear(last)
        return failure
    }

    /// Waits for the server to send something, until `deadline` (nil: for ever); past it the
    /// connection is abandoned.
    private func waitForInput(until deadline: DispatchTime?) throws(PostgresError) {
        var socket = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        let now = DispatchTime.now().uptimeNanoseconds
        let left = deadline.map { Int32(clamping: $0.uptimeNanoseconds > now ? ($0.uptimeNanoseconds - now) / 1_000_000 : 0) }
        var ready: Int32 = 0, failure: Int32 = 0
        PostgresWaiting.run {
            ready = poll(&socket, 1, left ?? -1)
            if ready < 0 { failure = errno }
        }
        if ready == 0 {
            abandoned = true
            throw .connection("no answer within \(answerTimeout ?? 0) ms")
        }
        guard ready > 0 || failure == EINTR else { throw .connection("poll: \(String(cString: strerror(failure)))") }
    }

    /// Runs `sql` with `arguments` for its placeholders, calling `body` with each row; returns
    /// how many rows it changed (for `INSERT`, `UPDATE`, `DELETE`) or returned.
    ///
    /// The statement is prepared once and its one plan serves every run, unless `planEachRun`:
    /// then it is sent whole and planned for these values (a search, whose best plan depends on
    /// the word searched).
    @discardableResult
    func run(_ sql: String, _ arguments: [SQLValue], planEachRun: Bool = false, _ body: (PostgresRow) throws -> Void = { _ in }) throws -> Int {
        let sent: CInt
        if planEachRun {
            // Values in the text: a statement with parameters gets the session's one plan for
            // any value (`force_generic_plan`), even unnamed. PostgreSQL's text holds no NUL,
            // and a C string would end at one.
            let hasNUL = arguments.contains { if case .text(let text) = $0 { text.utf8.contains(0) } else { false } }
            guard !hasNUL else { throw PostgresError.query(state: "22021", message: "a NUL character in text", sql: sql) }
            let (text, parameterCount) = PostgresSQL.numbered(sql) { number in
                arguments.indices.contains(number - 1) ? self.literal(arguments[number - 1]) : "NULL"
            }
            try checkCount(parameterCount, arguments, sql)
            sent = PQsendQueryParams(handle, text, 0, nil, nil, nil, nil, 1)
        } else {
            let statement = try prepared(sql)
            try checkCount(statement.parameterCount, arguments, sql)
            let parameters = arguments.map(PostgresParameter.init)
            sent = parameters.withParameterPointers { values, lengths, formats in
                PQsendQueryPrepared(handle, statement.name, CInt(parameters.count), values, lengths, formats, 1)
            }
        }
        let result = try answer(sent)
        defer { PQclear(result) }
        try check(result, sql)
        guard let result else { return 0 }
        let rows = Int(PQntuples(result))
        if PQresultStatus(result) == PGRES_TUPLES_OK {
            try learnTypes(of: result)
            for index in 0..<rows { try body(PostgresRow(result: result, row: CInt(index), textTypes: textTypes)) }
            return rows
        }
        return Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    /// `value` written as SQL, its text quoted by libpq (`PQescapeLiteral`, which knows the
    /// connection's encoding; it fails only out of memory), each in parentheses so that no
    /// neighbouring `-` makes a comment, and typed as the prepared path sends it.
    private func literal(_ value: SQLValue) -> String {
        func quoted(_ text: String) -> String {
            let bytes = Array(text.utf8)
            guard let escaped = bytes.withUnsafeBufferPointer({ buffer in
                buffer.withMemoryRebound(to: CChar.self) { PQescapeLiteral(handle, $0.baseAddress, $0.count) }
            }) else { return "NULL" }
            defer { PQfreemem(escaped) }
            return String(cString: escaped)
        }
        switch value {
        case .null: return "NULL"
        case .integer(let number): return "('\(number)'::bigint)"  // quoted: -9223372036854775808 unquoted is numeric
        case .real(let number): return "(\(quoted(PostgresText.double(number)))::float8)"
        case .text(let text): return "(\(quoted(text)))"
        case .bool(let flag): return flag ? "TRUE" : "FALSE"
        case .date(let date): return "(\(quoted(PostgresText.timestamp(date)))::timestamptz)"
        case .blob(let data): return "('\\x\(data.map { String(format: "%02x", $0) }.joined())'::bytea)"
        }
    }

    private func checkCount(_ parameterCount: Int, _ arguments: [SQLValue], _ sql: String) throws(PostgresError) {
        guard parameterCount == arguments.count else {
            throw .query(state: "07001", message: "\(arguments.count) arguments for \(parameterCount) parameters", sql: sql)
        }
    }

    /// Looks up the columns' types that are not PostgreSQL's own (an OID past the built-in
    /// range): those of the string category read as text.
    private func learnTypes(of result: OpaquePointer) throws {
        for column in 0..<PQnfields(result) {
            let type = PQftype(result, column)
            guard type >= 16_384, !textTypes.contains(type), !otherTypes.contains(type) else { continue }
            var category = ""
            try run("SELECT typcategory::text FROM pg_type WHERE oid = ?", [.integer(Int64(type))]) { category = try $0.string(atIndex: 0) }
            if category == "S" { textTypes.insert(type) } else { otherTypes.insert(type) }
        }
    }

    private func prepared(_ sql: String) throws(PostgresError) -> PreparedStatement {
        if let statement = statements[sql] { return statement }
        let (text, parameterCount) = PostgresSQL.numbered(sql)
        let statement = PreparedStatement(name: "s\(statements.count + 1)", parameterCount: parameterCount)
        let result = try answer(PQsendPrepare(handle, statement.name, text, 0, nil))
        defer { PQclear(result) }
        try check(result, text)
        statements[sql] = statement
        return statement
    }

    private func check(_ result: OpaquePointer?, _ sql: String) throws(PostgresError) {
        guard let result else { throw .connection(Self.message(PQerrorMessage(handle))) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            answers += 1
        default:
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
            let message = Self.message(PQresultErrorMessage(result))
            if state.isEmpty || state.hasPrefix("08") || !isUsable { throw .connection(message) }
            throw .query(state: state, message: message, sql: sql)
        }
    }

    private static func message(_ text: UnsafePointer<CChar>?) -> String {
        text.map { String(cString: $0) }?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "unknown error"
    }
}

/// How a thread waits for PostgreSQL's answer to a statement.
public enum PostgresWaiting {
    /// Runs each wait. `moim serve` hands it to its handler threads' pool (`HandlerPool.waiting`),
    /// so that the processor runs another page while PostgreSQL works on its own. Set once at
    /// start, before the first statement.
    nonisolated(unsafe) public static var run: (() -> Void) -> Void = { $0() }
}

/// What went wrong talking to PostgreSQL.
public enum PostgresError: Error, CustomStringConvertible, Sendable {
    /// No connection (refused, wrong password, the server restarting): a 503 for the page.
    case connection(String)
    /// The server refused a statement; `state` is its SQLSTATE (`23505` a unique violation…).
    case query(state: String, message: String, sql: String)

    public var description: String {
        switch self {
        case .connection(let message): "PostgreSQL: \(message)"
        case .query(let state, let message, let sql): "PostgreSQL \(state): \(message) in \(sql.prefix(200))"
        }
    }

    /// A transaction that lost a race to another and may simply run again.
    var isRetryable: Bool {
        if case .query(let state, _, _) = self { return state == "40001" || state == "40P01" }
        return false
    }

    /// The connection failed, not the statement.
    var isConnection: Bool {
        if case .connection = self { return true }
        return false
    }
}

/// One parameter as libpq takes it: text, or bytes for `bytea`.
private struct PostgresParameter {
    let bytes: [CChar]?
    let isBinary: Bool

    init(_ value: SQLValue) {
        switch value {
        case .null: (bytes, isBinary) = (nil, false)
        case .integer(let number): (bytes, isBinary) = (Array(String(number).utf8CString), false)
        case .real(let number): (bytes, isBinary) = (Array(PostgresText.double(number).utf8CString), false)
        case .text(let text): (bytes, isBinary) = (Array(text.utf8CString), false)
        case .bool(let flag): (bytes, isBinary) = (Array((flag ? "t" : "f").utf8CString), false)
        case .date(let date): (bytes, isBinary) = (Array(PostgresText.timestamp(date).utf8CString), false)
        case .blob(let data): (bytes, isBinary) = (data.map { CChar(bitPattern: $0) }, true)
        }
    }

    var length: CInt { isBinary ? CInt(bytes?.count ?? 0) : 0 }
}

extension Array where Element == PostgresParameter {
    fileprivate func withParameterPointers<T>(
        _ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<CInt>?, UnsafePointer<CInt>?) -> T
    ) -> T {
        let lengths = map(\.length), formats = map { CInt($0.isBinary ? 1 : 0) }
        // Each buffer lives for the call: the parameters are copied into one allocation.
        let total = reduce(0) { $0 + ($1.bytes?.count ?? 0) }
        let storage = UnsafeMutablePointer<CChar>.allocate(capacity: Swift.max(total, 1))
        defer { storage.deallocate() }
        var pointers: [UnsafePointer<CChar>?] = []
        pointers.reserveCapacity(count)
        var offset = 0
        for parameter in self {
            guard let bytes = parameter.bytes else { pointers.append(nil); continue }
            bytes.withUnsafeBufferPointer { buffer in
                if let base = buffer.baseAddress { (storage + offset).initialize(from: base, count: buffer.count) }
            }
            pointers.append(UnsafePointer(storage + offset))
            offset += bytes.count
        }
        return pointers.withUnsafeBufferPointer { values in
            lengths.withUnsafeBufferPointer { lengths in
                formats.withUnsafeBufferPointer { formats in body(values.baseAddress, lengths.baseAddress, formats.baseAddress) }
            }
        }
    }
}

extension PostgresConnection: EngineConnection {
    var engine: SQLConnection.Engine { .postgres }

    func run(statement sql: String, arguments: [SQLValue], planEachRun: Bool, body: (SQLRow) throws -> Void) throws -> Int {
        try run(sql, arguments, planEachRun: planEachRun) { try body(.postgres($0)) }
    }

    func runScript(_ sql: String) throws {
        try execute(sql)
    }
}
