
/// A record whose integer primary key is set once it has been inserted or fetched.
public protocol StoredRecord {
    var id: Int64? { get }
}

extension StoredRecord {
    /// The primary key; throws for a record that was never saved, instead of crashing.
    public var storedID: Int64 {
        get throws(StorageError) {
            guard let id else { throw StorageError.notFound }
            return id
        }
    }
}

extension User: StoredRecord {}
extension Session: StoredRecord {}
