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
