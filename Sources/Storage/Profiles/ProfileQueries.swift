import Foundation

extension ProfileStore {
    public func updateProfile(userID: Int64, _ changes: ProfileChanges) throws -> User {
        try database.write { db in
            guard var user = try db.record(User.self, id: userID) else { throw StorageError.notFound }
            user.displayName = changes.displayName
            user.bio = changes.bio
            user.gender = changes.gender
            user.birthYear = changes.birthYear
            user.job = changes.job
            user.region = changes.region
            user.language = changes.language
            try db.update(user)
            return user
        }
    }

    public func setRunPreferences(userID: Int64, units: String, onLeaderboard: Bool) throws {
        try database.write { db in
            try db.execute("UPDATE users SET units = ?, onLeaderboard = ? WHERE id = ?", [units, onLeaderboard, userID])
        }
    }
}
