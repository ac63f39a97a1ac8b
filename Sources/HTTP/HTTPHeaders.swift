/// An ordered list of header fields with case-insensitive lookup.
///
/// Request header names are stored lower-cased by the parser, so lookups compare
/// lower-cased names; response headers keep the spelling they were given.
public struct HTTPHeaders: Sendable, Sequence {
    public private(set) var fields: [(name: String, value: String)] = []

    public init(_ fields: [(String, String)] = []) {
        self.fields = fields.map { (name: $0.0, value: $0.1) }
    }

    /// The first value of the field `name`, if present.
    public subscript(name: String) -> String? {
        let key = name.lowercased()
        return fields.first { $0.name.lowercased() == key }?.value
    }

    /// Every value of the field `name`, in order.
    public func values(_ name: String) -> [String] {
        let key = name.lowercased()
        return fields.filter { $0.name.lowercased() == key }.map(\.value)
    }

    public mutating func add(_ name: String, _ value: String) {
        fields.append((name: name, value: value))
    }

    /// Replaces every field `name` with one field holding `value`.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        fields.append((name: name, value: value))
    }

    public mutating func remove(_ name: String) {
        let key = name.lowercased()
        fields.removeAll { $0.name.lowercased() == key }
    }

    public var count: Int { fields.count }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }
}
