import Foundation
import GRDB

extension Migrations {
    static func addSplits(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE records ADD COLUMN splits TEXT CHECK (length(splits) <= 8000)")
    }
}
