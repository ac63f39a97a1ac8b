import Foundation
import Storage

extension AppDatabase {
    /// Signs up one member per name, with a profile meetups' rules can read; their ids, in order.
    func members(_ names: String...) throws -> [Int64] {
        try names.map { name in
            var user = User(username: name, email: "\(name)@example.com", passwordHash: "x", displayName: name.capitalized)
            user.gender = "female"
            user.birthYear = 1994
            return try accounts.createUser(user).storedID
        }
    }
}

/// A token's or code's hash, as long as the schema keeps them (32 bytes), all `byte`.
func tokenHash(_ byte: UInt8) -> Data { Data(repeating: byte, count: 32) }
