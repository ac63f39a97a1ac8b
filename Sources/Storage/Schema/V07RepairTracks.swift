import Foundation
import Formats
import GRDB

extension Migrations {
    /// Tracks stored before points were checked could hold NaN, infinity or elevations like
    /// 1e39, which made every view of the record trap. Rewrite each through `Track`, which
    /// drops what is not believable; a track left with under two points is removed. Only
    /// SQLite's sites can hold such tracks: PostgreSQL came after points were checked.
    static func repairTracks(_ db: Database) throws {
        let rows = try Row.fetchAll(db, sql: "SELECT id, track FROM records WHERE track IS NOT NULL")
        for row in rows {
            let id: Int64 = row["id"]
            let stored: Data = row["track"] ?? Data()
            let track = Track(encoded: stored)
            let repaired = track.points.count >= 2 ? track.encoded : nil
            guard repaired != stored else { continue }
            try db.execute(sql: "UPDATE records SET track = ? WHERE id = ?", arguments: [repaired, id])
        }
    }
}
