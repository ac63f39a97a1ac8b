import ArgumentParser
import Foundation
import Storage

struct Admin: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Manage staff roles.",
        subcommands: [Grant.self, Revoke.self]
    )

    struct Grant: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Give an existing account a staff role (admin by default).")

        @Argument(help: "The account's username.") var username: String
        @Option(help: "admin or moderator.") var role: String = "admin"
        @OptionGroup var dataOptions: DataOptions

        func run() throws {
            guard let role = User.Role(rawValue: role), role != .member else {
                throw ValidationError("--role must be admin or moderator")
            }
            try setRole(role, username: username, data: dataOptions.data)
        }
    }

    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make a staff account an ordinary member again.")

        @Argument(help: "The account's username.") var username: String
        @OptionGroup var dataOptions: DataOptions

        func run() throws {
            try setRole(.member, username: username, data: dataOptions.data)
        }
    }
}

private func setRole(_ role: User.Role, username: String, data: String) throws {
    let database = try AppDatabase.open(directory: data)
    defer { try? database.close() }
    do {
        let user = try database.setRole(role, username: username)
        print("@\(user.username) is now \(user.role.rawValue); their sessions were ended.")
    } catch StorageError.notFound {
        FileHandle.standardError.write(Data("No account is named \(username).\n".utf8))
        throw ExitCode.failure
    }
}
