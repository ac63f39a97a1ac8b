import Foundation

/// What a database's schema holds, in the terms both engines share: each table's columns in
/// order (their kind, whether they may be NULL, whether they have a DEFAULT: an identity, like
/// SQLite's INTEGER PRIMARY KEY, numbers rows without one), its indexes,
/// foreign keys and CHECK rules. SQLite's migrations and PostgreSQL's baseline and migrations
/// are two texts of one schema; `SchemaCatalogTests` compares what each made, so that they
/// cannot drift. Names are compared in lower case, as PostgreSQL folds unquoted names.
public struct SchemaCatalog: Equatable, Sendable {
    public enum Kind: String, Sendable { case integer, real, text, blob, date, boolean }

    public struct Column: Equatable, Sendable, CustomStringConvertible {
        public let name: String
        public let kind: Kind?
        public let notNull: Bool
        public let hasDefault: Bool
        public var description: String { "\(name) \(kind?.rawValue ?? "?")\(notNull ? " NOT NULL" : "")\(hasDefault ? " DEFAULT" : "")" }
    }

    public struct Index: Hashable, Sendable, CustomStringConvertible {
        /// The columns in order; `expr` for an expression.
        public let columns: [String]
        public let unique: Bool
        public let partial: Bool
        public var description: String { "\(unique ? "UNIQUE " : "")(\(columns.joined(separator: ", ")))\(partial ? " WHERE …" : "")" }
    }

    public struct ForeignKey: Hashable, Sendable, CustomStringConvertible {
        public let columns: [String]
        public let table: String
        public let referenced: [String]
        /// `CASCADE`, `SET NULL`, `RESTRICT` or `NO ACTION`.
        public let onDelete: String
        public var description: String { "(\(columns.joined(separator: ", "))) → \(table)(\(referenced.joined(separator: ", "))) ON DELETE \(onDelete)" }
    }

    public struct Table: Equatable, Sendable {
        public var columns: [Column] = []
        public var indexes: Set<Index> = []
        public var foreignKeys: Set<ForeignKey> = []
        public var checks = 0
    }

    public var tables: [String: Table] = [:]
}

extension AppDatabase {
    /// This database's schema as `SchemaCatalog` describes it. Search's own structures are
    /// left out, as each engine searches its own way: SQLite's FTS5 tables and PostgreSQL's
    /// trigram (GIN) indexes; so are the migrations' bookkeeping tables.
    public func schemaCatalog() throws -> SchemaCatalog {
        try read { db in
            switch db.engine {
            case .sqlite: try Self.sqliteCatalog(db)
            case .postgres: try Self.postgresCatalog(db)
            }
        }
    }

    fileprivate static func sqliteCatalog(_ db: SQLConnection) throws -> SchemaCatalog {
        var catalog = SchemaCatalog()
        let tables = try db.fetchAll("""
            SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'grdb_migrations'
                AND sql NOT LIKE 'CREATE VIRTUAL TABLE%' AND name NOT LIKE '%Search_%'
            """) { (try $0.string(atIndex: 0), try $0.string(atIndex: 1)) }
        for (name, sql) in tables {
            var table = SchemaCatalog.Table()
            table.columns = try db.fetchAll("SELECT name, type, \"notnull\", dflt_value IS NOT NULL, pk FROM pragma_table_info(?)", [name]) { row in
                SchemaCatalog.Column(
                    name: try row.string(atIndex: 0).lowercased(), kind: sqliteKind(try row.string(atIndex: 1)),
                    notNull: try row.bool(atIndex: 2) || row.int64(atIndex: 4) > 0, hasDefault: try row.bool(atIndex: 3))
            }
            let indexes = try db.fetchAll("SELECT name, \"unique\", partial, origin FROM pragma_index_list(?)", [name]) {
                (try $0.string(atIndex: 0), try $0.bool(atIndex: 1), try $0.bool(atIndex: 2), try $0.string(atIndex: 3))
            }
            for (index, unique, partial, origin) in indexes where origin != "pk" {
                let columns = try db.fetchAll("SELECT name FROM pragma_index_info(?) ORDER BY seqno", [index]) {
                    $0.isNull(atIndex: 0) ? "expr" : try $0.string(atIndex: 0).lowercased()
                }
                table.indexes.insert(SchemaCatalog.Index(columns: columns, unique: unique, partial: partial))
            }
            let keys = try db.fetchAll("SELECT id, \"table\", \"from\", \"to\", on_delete FROM pragma_foreign_key_list(?) ORDER BY id, seq", [name]) {
                (try $0.int64(atIndex: 0), try $0.string(atIndex: 1), try $0.string(atIndex: 2), $0.isNull(atIndex: 3) ? "id" : try $0.string(atIndex: 3), try $0.string(atIndex: 4))
            }
            for id in Set(keys.map(\.0)) {
                let parts = keys.filter { $0.0 == id }
                table.foreignKeys.insert(SchemaCatalog.ForeignKey(
                    columns: parts.map { $0.2.lowercased() }, table: parts[0].1.lowercased(), referenced: parts.map { $0.3.lowercased() }, onDelete: parts[0].4))
            }
            table.checks = sql.uppercased().matches(of: #/\bCHECK\s*\(/#).count
            // SQLite has no boolean: an INTEGER held to 0 and 1 by a CHECK is PostgreSQL's boolean.
            for (position, column) in table.columns.enumerated() where column.kind == .integer {
                guard sql.lowercased().contains("check (\(column.name) in (0, 1))") else { continue }
                table.columns[position] = SchemaCatalog.Column(name: column.name, kind: .boolean, notNull: column.notNull, hasDefault: column.hasDefault)
                table.checks -= 1
            }
            catalog.tables[name.lowercased()] = table
        }
        return catalog
    }

    fileprivate static func sqliteKind(_ declared: String) -> SchemaCatalog.Kind? {
        let type = declared.uppercased()
        if type.contains("INT") { return .integer }
        if type.contains("CHAR") || type.contains("TEXT") || type.contains("CLOB") { return .text }
        if type.contains("BLOB") { return .blob }
        if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") { return .real }
        if type.contains("DATE") || type.contains("TIME") { return .date }
        if type.contains("BOOL") { return .boolean }
        return nil
    }

    fileprivate static func postgresCatalog(_ db: SQLConnection) throws -> SchemaCatalog {
        var catalog = SchemaCatalog()
        let columns = try db.fetchAll("""
            SELECT c.table_name, c.column_name, c.udt_name, c.is_nullable = 'NO', c.column_default IS NOT NULL
            FROM information_schema.columns c JOIN information_schema.tables t USING (table_schema, table_name)
            WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' AND c.table_name != 'schema_migrations'
            ORDER BY c.table_name, c.ordinal_position
            """) { row in
            (table: try row.string(atIndex: 0), column: SchemaCatalog.Column(
                name: try row.string(atIndex: 1), kind: postgresKind(try row.string(atIndex: 2)),
                notNull: try row.bool(atIndex: 3), hasDefault: try row.bool(atIndex: 4)))
        }
        for (table, column) in columns { catalog.tables[table, default: SchemaCatalog.Table()].columns.append(column) }
        let indexes = try db.fetchAll("""
            SELECT t.relname, ix.indisunique, ix.indpred IS NOT NULL,
                   (SELECT string_agg(coalesce(a.attname::text, 'expr'), ',' ORDER BY k.ord)
                    FROM unnest(ix.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
                    LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum AND k.attnum > 0)
            FROM pg_index ix JOIN pg_class t ON t.oid = ix.indrelid JOIN pg_class i ON i.oid = ix.indexrelid
            JOIN pg_am am ON am.oid = i.relam JOIN pg_namespace n ON n.oid = t.relnamespace
            WHERE n.nspname = current_schema() AND NOT ix.indisprimary AND am.amname = 'btree' AND t.relname != 'schema_migrations'
            """) { row in
            (try row.string(atIndex: 0), SchemaCatalog.Index(
                columns: try row.string(atIndex: 3).split(separator: ",").map(String.init), unique: try row.bool(atIndex: 1), partial: try row.bool(atIndex: 2)))
        }
        for (table, index) in indexes { catalog.tables[table]?.indexes.insert(index) }
        let keys = try db.fetchAll("""
            SELECT c.conrelid::regclass::text, c.confrelid::regclass::text, c.confdeltype::text,
                   (SELECT string_agg(a.attname::text, ',' ORDER BY k.ord) FROM unnest(c.conkey) WITH ORDINALITY AS k(attnum, ord)
                    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum),
                   (SELECT string_agg(a.attname::text, ',' ORDER BY k.ord) FROM unnest(c.confkey) WITH ORDINALITY AS k(attnum, ord)
                    JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum)
            FROM pg_constraint c WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace
            """) { row in
            let onDelete = ["c": "CASCADE", "n": "SET NULL", "r": "RESTRICT", "d": "SET DEFAULT"][try row.string(atIndex: 2)] ?? "NO ACTION"
            return (try row.string(atIndex: 0), SchemaCatalog.ForeignKey(
                columns: try row.string(atIndex: 3).split(separator: ",").map(String.init), table: try row.string(atIndex: 1),
                referenced: try row.string(atIndex: 4).split(separator: ",").map(String.init), onDelete: onDelete))
        }
        for (table, key) in keys { catalog.tables[table]?.foreignKeys.insert(key) }
        let checks = try db.fetchAll("""
            SELECT conrelid::regclass::text, count(*) FROM pg_constraint WHERE contype = 'c' AND connamespace = current_schema()::regnamespace GROUP BY 1
            """) { (try $0.string(atIndex: 0), try $0.int64(atIndex: 1)) }
        for (table, count) in checks { catalog.tables[table]?.checks = Int(count) }
        return catalog
    }

    fileprivate static func postgresKind(_ type: String) -> SchemaCatalog.Kind? {
        switch type {
        case "int2", "int4", "int8": .integer
        case "float4", "float8", "numeric": .real
        case "text", "citext", "varchar": .text
        case "bytea": .blob
        case "timestamptz", "timestamp", "date": .date
        case "bool": .boolean
        default: nil
        }
    }
}
