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

    /// Whether `line` decides by engine: a comparison, a case of one, a switch on the store or
    /// the connection.
    static func decides(_ line: some StringProtocol) -> Bool {
        let line = String(line)
        guard line.contains("engine") || line.contains("case .") || line.contains("switch") else { return false }
        return line.contains(#/engine\s*[!=]=\s*\./#) || line.contains(#/case\s+\.(sqlite|postgres)\b/#)
            || line.contains(#/switch\s+(store|backend)\b/#)
    }

    @Test func noFileOutsideTheEngineFoldersDecidesByEngine() throws {
        // Given every Swift source of the site outside the engine folders
        let files = Repository.swiftFiles(under: "Sources").filter { path in !Self.engineFolders.contains { path.hasPrefix($0) } }
        #expect(files.count > 100)
        // Then none compares engines or switches on one
        var found: [String] = []
        for path in files {
            for (number, line) in try Repository.text(path).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if Self.decides(line) { found.append("\(path):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))") }
            }
        }
        #expect(found.isEmpty, "decide by engine in Sources/Storage/SQL/SQLDialect.swift instead:\n\(found.joined(separator: "\n"))")
    }

    @Test func theCheckFindsAComparisonOfEngines() {
        // Given lines that decide by engine, and lines that only mention one
        let deciding = ["if engine == .sqlite {", "let x = db.engine != .postgres", "    case .postgres(let pool):", "switch store {"]
        let mentioning = ["manifest.engine == \"postgres\"", "engine.searchesThroughTables", "// case sqlite was slower"]
        // Then the check catches the first and lets the others be
        #expect(deciding.allSatisfy(Self.decides))
        #expect(!mentioning.contains(where: Self.decides))
    }
}
