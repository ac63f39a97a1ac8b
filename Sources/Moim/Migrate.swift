import ArgumentParser
import Storage

struct Migrate: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Create or upgrade the database, then exit.")

    @OptionGroup var dataOptions: DataOptions

    func run() throws {
        let database = try dataOptions.open()
        for name in try database.appliedMigrations() { print("applied: \(name)") }
        try database.close()
    }
}
