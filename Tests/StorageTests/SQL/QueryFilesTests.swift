import Foundation
import Testing
import TestSupport

/// Where SQLite and PostgreSQL differ is written in one place: the engines' own folders,
/// the schema, the database's core and the named differences of `SQL/SQLDialect.swift`. A
/// query file that compared engines itself would be a second place to look, and to miss.
struct QueryFilesTests {
    /// Folders allowed to know which engine runs.
    static let engineFolders = ["Sources/Storage/SQL/", "Sources/Storage/SQLite/", "Sources/Storage/Postgres/",
                                "Sources/Storage/Schema/", "Sources/Storage/Database/"]

    /// Whether `line` decides by engine, in any of the forms it can take: a comparison, an
    /// engine named by its case, a switch on the store, the connection or its engine, two
    /// texts written apart (`PerEngine(sqlite:postgres:)`), or the search tables' question.
    static func decides(_ line: some StringProtocol) -> Bool {
        let line = String(line)
        return line.contains(#/engine\s*[!=]=\s*\./#) || line.contains(#/[^\w"]\.(sqlite|postgres)\b/#)
            || line.contains(#/switch\s+([\w.]*\.)?(store|backend|engine)\b/#)
            || line.contains(#/PerEngine\s*\(\s*sqlite\s*:/#) || line.contains("searchesThroughTables")
    }

    @Test func noFileOutsideTheEngineFoldersDecidesByEngine() throws {
        // Given every Swift source of the site outside the engine folders
        let files = Repository.swiftFiles(under: "Sources").filter { path in !Self.engineFolders.contains { path.hasPrefix($0) } }
        #expect(files.count > 100)
        // Then none compares engines or switches on one
        let found = try Self.lines(in: files, where: Self.decides)
        #expect(found.isEmpty, "decide by engine in Sources/Storage/SQL/SQLDialect.swift instead:\n\(found.joined(separator: "\n"))")
    }

    /// Whether `line` reads a column by a number: a literal position, an offset counted by
    /// hand, or one counted from the end of another type's columns.
    static func readsByNumber(_ line: some StringProtocol) -> Bool {
        String(line).contains(#/atIndex:\s*(\w+\s*\+\s*)?\d|offset\s*\+\s*\d|(columns|selection)\.count\s*\+\s*\d|atIndex:\s*\w+\.(columns|selection)\.count/#)
    }

    @Test func noAreaFileReadsAColumnByANumber() throws {
        // Given the Swift sources of Storage's areas
        let files = Repository.swiftFiles(under: "Sources/Storage").filter { path in !Self.engineFolders.contains { path.hasPrefix($0) } }
        #expect(files.count > 40)
        // Then none reads a column by its position: a stored type reads by its `Columns`,
        // a query's own columns by their names
        let found = try Self.lines(in: files, where: Self.readsByNumber)
        #expect(found.isEmpty, "read by `Columns` or by name (`row.decode(\"name\")`) instead:\n\(found.joined(separator: "\n"))")
    }

    /// The lines of `files` that `test` finds, as `path:line: text`.
    static func lines(in files: [String], where test: (Substring) -> Bool) throws -> [String] {
        try files.flatMap { path in
            try Repository.text(path).split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { number, line in
                test(line) ? "\(path):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))" : nil
            }
        }
    }

    @Test func theCheckFindsAColumnReadByANumber() {
        let numbered = ["id = try row.decode(atIndex: 0)", "title = try row.decode(atIndex: offset + 4)",
                        "try row.string(atIndex: Payment.columns.count)", "let role = try row.decode(atIndex: extra + 1)"]
        let named = ["title = try column(.title)", "try row.decode(\"crewName\")", "try User(row: row, startingAt: Session.selection.count)"]
        #expect(numbered.allSatisfy(Self.readsByNumber))
        #expect(!named.contains(where: Self.readsByNumber))
    }

    @Test func theCheckFindsAComparisonOfEngines() {
        // Given lines that decide by engine, and lines that only mention one
        let deciding = ["if engine == .sqlite {", "let x = db.engine != .postgres", "    case .postgres(let pool):", "switch store {",
                        "switch database.engine {", "let text = source(.sqlite)", "static let sql = PerEngine(sqlite: \"a\", postgres: \"b\")",
                        "if database.engine.searchesThroughTables {"]
        let mentioning = ["manifest.engine == \"postgres\"", "engine.searchMatches(\"postSearch\")", "// case sqlite was slower",
                          "let file = \"moim.sqlite\"", "PerEngine { engine in sql(engine) }"]
        // Then the check catches the first and lets the others be
        #expect(deciding.allSatisfy(Self.decides))
        #expect(!mentioning.contains(where: Self.decides))
    }
}
