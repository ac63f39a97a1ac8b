import CLibpq
import Foundation

/// A row of a result PostgreSQL sent in binary; valid only inside `run`'s body.
struct PostgresRow: PositionalRow {
    fileprivate let result: OpaquePointer
    fileprivate let row: CInt
    /// Types of extensions that send text as text does (`citext`), by OID.
    fileprivate let textTypes: Set<Oid>

    init(result: OpaquePointer, row: CInt, textTypes: Set<Oid>) {
        self.result = result
        self.row = row
        self.textTypes = textTypes
    }

    var count: Int { Int(PQnfields(result)) }

    func columnName(atIndex index: Int) -> String {
        PQfname(result, CInt(index)).map { String(cString: $0) } ?? ""
    }

    /// PostgreSQL folds unquoted names to lower case, and `PQfnumber` folds `name` alike.
    func index(ofColumn name: String) -> Int? {
        let index = PQfnumber(result, name)
        return index >= 0 ? Int(index) : nil
    }

    func isNull(atIndex index: Int) -> Bool {
        !(0..<count).contains(index) || PQgetisnull(result, row, CInt(index)) == 1
    }

    func int64(atIndex index: Int) throws -> Int64 {
        let bytes = try value(index, "Int64")
        switch PQftype(result, CInt(index)) {
        case PostgresType.int8, PostgresType.int4, PostgresType.int2:
            return try PostgresBinary.integer(bytes) ?? mismatch(index, "Int64")
        case PostgresType.bool:
            return bytes.first.map { $0 == 0 ? 0 : 1 } ?? 0
        case PostgresType.numeric:
            guard let value = PostgresBinary.numeric(bytes), let integer = Int64(exactly: value) else { return try mismatch(index, "Int64") }
            return integer
        default:
            return try mismatch(index, "Int64")
        }
    }

    func double(atIndex index: Int) throws -> Double {
        let bytes = try value(index, "Double")
        switch PQftype(result, CInt(index)) {
        case PostgresType.float8 where bytes.count == 8:
            return Double(bitPattern: PostgresBinary.unsigned(bytes))
        case PostgresType.float4 where bytes.count == 4:
            return Double(Float(bitPattern: UInt32(truncatingIfNeeded: PostgresBinary.unsigned(bytes))))
        case PostgresType.int8, PostgresType.int4, PostgresType.int2:
            return try Double(PostgresBinary.integer(bytes) ?? mismatch(index, "Double"))
        case PostgresType.numeric:
            return try PostgresBinary.numeric(bytes) ?? mismatch(index, "Double")
        default:
            return try mismatch(index, "Double")
        }
    }

    func string(atIndex index: Int) throws -> String {
        let bytes = try value(index, "String")
        switch PQftype(result, CInt(index)) {
        case PostgresType.text, PostgresType.varchar, PostgresType.bpchar, PostgresType.name, PostgresType.unknown:
            return String(decoding: bytes, as: UTF8.self)
        case let type where textTypes.contains(type):
            return String(decoding: bytes, as: UTF8.self)
        default:
            return try mismatch(index, "String")
        }
    }

    func data(atIndex index: Int) throws -> Data {
        let bytes = try value(index, "Data")
        guard PQftype(result, CInt(index)) == PostgresType.bytea else { return try mismatch(index, "Data") }
        return Data(bytes)
    }

    func bool(atIndex index: Int) throws -> Bool {
        if PQftype(result, CInt(index)) == PostgresType.bool {
            return try value(index, "Bool").first.map { $0 != 0 } ?? false
        }
        return try int64(atIndex: index) != 0
    }

    func date(atIndex index: Int) throws -> Date {
        let bytes = try value(index, "Date")
        switch PQftype(result, CInt(index)) {
        case PostgresType.timestamptz, PostgresType.timestamp:
            guard let microseconds = PostgresBinary.integer(bytes), bytes.count == 8 else { return try mismatch(index, "Date") }
            return PostgresBinary.date(microsecondsSince2000: microseconds)
        default:
            return try mismatch(index, "Date")
        }
    }

    /// The column in the Swift type closest to its PostgreSQL type, for copying and comparing.
    func value(atIndex index: Int) throws -> SQLValue {
        guard !isNull(atIndex: index) else { return .null }
        return switch PQftype(result, CInt(index)) {
        case PostgresType.int8, PostgresType.int4, PostgresType.int2: .integer(try int64(atIndex: index))
        case PostgresType.float8, PostgresType.float4, PostgresType.numeric: .real(try double(atIndex: index))
        case PostgresType.bool: .bool(try bool(atIndex: index))
        case PostgresType.bytea: .blob(try data(atIndex: index))
        case PostgresType.timestamptz, PostgresType.timestamp: .date(try date(atIndex: index))
        default: .text(try string(atIndex: index))
        }
    }

    private func value(_ index: Int, _ type: String) throws -> UnsafeRawBufferPointer {
        guard !isNull(atIndex: index), let bytes = PQgetvalue(result, row, CInt(index)) else { return try mismatch(index, type) }
        return UnsafeRawBufferPointer(start: bytes, count: Int(PQgetlength(result, row, CInt(index))))
    }

    private func mismatch<T>(_ index: Int, _ type: String) throws -> T {
        throw SQLDecodingError.mismatch(index, type)
    }
}

/// The type OIDs of `pg_type` that Moim's columns use.
enum PostgresType {
    static let bool: Oid = 16
    static let bytea: Oid = 17
    static let name: Oid = 19
    static let int8: Oid = 20
    static let int2: Oid = 21
    static let int4: Oid = 23
    static let text: Oid = 25
    static let float4: Oid = 700
    static let float8: Oid = 701
    static let unknown: Oid = 705
    static let bpchar: Oid = 1042
    static let varchar: Oid = 1043
    static let timestamp: Oid = 1114
    static let timestamptz: Oid = 1184
    static let numeric: Oid = 1700
}
