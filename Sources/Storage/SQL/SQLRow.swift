import Foundation

/// A row of either engine. An enumeration rather than `any PositionalRow`: each column read
/// is a switch and a direct call, not a call through a witness table, on the path every page's
/// rows take.
enum SQLRow: PositionalRow {
    case sqlite(SteppedRow)
    case postgres(PostgresRow)

    private var row: any PositionalRow {
        switch self {
        case .sqlite(let row): row
        case .postgres(let row): row
        }
    }

    var count: Int { row.count }
    func columnName(atIndex index: Int) -> String { row.columnName(atIndex: index) }

    func index(ofColumn name: String) -> Int? {
        switch self {
        case .sqlite(let row): row.index(ofColumn: name)
        case .postgres(let row): row.index(ofColumn: name)
        }
    }

    func isNull(atIndex index: Int) -> Bool {
        switch self {
        case .sqlite(let row): row.isNull(atIndex: index)
        case .postgres(let row): row.isNull(atIndex: index)
        }
    }

    func int64(atIndex index: Int) throws -> Int64 {
        switch self {
        case .sqlite(let row): try row.int64(atIndex: index)
        case .postgres(let row): try row.int64(atIndex: index)
        }
    }

    func double(atIndex index: Int) throws -> Double {
        switch self {
        case .sqlite(let row): try row.double(atIndex: index)
        case .postgres(let row): try row.double(atIndex: index)
        }
    }

    func string(atIndex index: Int) throws -> String {
        switch self {
        case .sqlite(let row): try row.string(atIndex: index)
        case .postgres(let row): try row.string(atIndex: index)
        }
    }

    func data(atIndex index: Int) throws -> Data {
        switch self {
        case .sqlite(let row): try row.data(atIndex: index)
        case .postgres(let row): try row.data(atIndex: index)
        }
    }

    func bool(atIndex index: Int) throws -> Bool {
        switch self {
        case .sqlite(let row): try row.bool(atIndex: index)
        case .postgres(let row): try row.bool(atIndex: index)
        }
    }

    func date(atIndex index: Int) throws -> Date {
        switch self {
        case .sqlite(let row): try row.date(atIndex: index)
        case .postgres(let row): try row.date(atIndex: index)
        }
    }

    /// The column as its engine holds it.
    func value(atIndex index: Int) throws -> SQLValue {
        switch self {
        case .sqlite(let row): try row.value(atIndex: index)
        case .postgres(let row): try row.value(atIndex: index)
        }
    }
}
