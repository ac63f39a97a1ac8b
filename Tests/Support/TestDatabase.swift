import Foundation
import Storage
import Synchronization

/// A fresh, empty database for one test, on the engine `TEST_DB` names: `sqlite` (the default:
/// a file, read through the same connections as in production) or `postgres`: a new database
/// in the throwaway cluster at `MOIM_TEST_POSTGRES_URL` (`script/test` starts it), copied from
/// a template migrated once.
public enum TestDatabase {
    public static let onPostgres = ProcessInfo.processInfo.environment["TEST_DB"] == "postgres"

    public static func fresh() throws -> AppDatabase {
        guard onPostgres else { return try AppDatabase.open(directory: try scratchDirectory() + "/" + UUID().uuidString) }
        return try AppDatabase.open(postgres: try freshPostgresURL(), connections: 4)
    }

    /// This process's SQLite files: on the RAM disk where there is one (a commit's `fsync`
    /// costs nothing there), removed when the process ends.
    private static func scratchDirectory() throws -> String {
        try scratch.withLock { directory in
            if let directory { return directory }
            let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
            let made = "\(base)/moim-tests-\(getpid())"
            try FileManager.default.createDirectory(atPath: made, withIntermediateDirectories: true)
            atexit { if let path = TestDatabase.scratch.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: path) } }
            directory = made
            return made
        }
    }

    private static let scratch = Mutex<String?>(nil)

    /// The URL of a new database holding Moim's schema and nothing else.
    public static func freshPostgresURL() throws -> String {
        guard let server = ProcessInfo.processInfo.environment["MOIM_TEST_POSTGRES_URL"] else {
            throw TestDatabaseError.noServer
        }
        let template = try migratedTemplate.withLock { template in
            if let template { return template }
            let name = "moim_template_\(getpid())"
            let url = try AppDatabase.createPostgresDatabase(named: name, server: server)
            try AppDatabase.open(postgres: url, connections: 1).close()
            template = name
            return name
        }
        return try AppDatabase.createPostgresDatabase(named: "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""),
                                                      server: server, template: template)
    }

    private static let migratedTemplate = Mutex<String?>(nil)
}

public enum TestDatabaseError: Error {
    case noServer
}
