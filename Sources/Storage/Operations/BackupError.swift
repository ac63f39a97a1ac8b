/// Why a backup or a restore stopped, in words for whoever runs it.
public enum BackupError: Error, Equatable, CustomStringConvertible {
    case noDatabase(String)
    case notEmpty(String)
    case cannotRead(String)
    case cannotWrite(String)
    case badManifest(String)
    case newerSchema(String)
    case unexpected(String)
    case missing(String)
    case checksum(String)
    case integrity(String)
    case notEmptyDatabase
    case wrongEngine(dump: Bool)
    case missingTool(String)
    case tool(String, String)
    case bucket(String)

    public var description: String {
        switch self {
        case .noDatabase(let data): "no database in \(data) (expected \(data)/moim.sqlite)"
        case .notEmpty(let data): "\(data) is not empty; restore into an empty directory, or pass --force to replace its site"
        case .cannotRead(let path): "cannot read \(path)"
        case .cannotWrite(let path): "cannot write \(path)"
        case .badManifest(let why): "the archive's manifest is not usable: \(why)"
        case .newerSchema(let migration): "the backup comes from a newer Moim (migration \"\(migration)\"); upgrade moim first"
        case .unexpected(let name): "the archive holds \(name.debugDescription), which its manifest does not list"
        case .missing(let name): "the archive lacks \(name), which its manifest lists: it is incomplete"
        case .checksum(let name): "\(name) does not match its checksum: the archive is damaged"
        case .integrity(let report): "the database fails SQLite's integrity check: \(report)"
        case .notEmptyDatabase: "the PostgreSQL database is not empty; restore into a new, empty database"
        case .wrongEngine(let dump): dump
            ? "this backup is of a PostgreSQL site: restore it with --database postgres://… (a new, empty database)"
            : "this backup is of a SQLite site: restore it without --database (or restore it, then move it with moim copy)"
        case .missingTool(let program): "\(program) is not installed (apt-get install postgresql-client)"
        case .tool(let program, let said): "\(program) failed: \(said)"
        case .bucket(let why): why
        }
    }
}
