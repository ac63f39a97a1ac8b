import ArgumentParser
import Foundation
import Storage
import Web

struct Admin: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Manage staff roles; make password-reset links.",
        subcommands: [Grant.self, Revoke.self, ResetLink.self]
    )

    struct ResetLink: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset-link",
            abstract: "Print a one-time link (valid one hour) that sets a new password for the account, to pass on to its owner.")

        @Argument(help: "The account's username.") var username: String
        @Option(help: "The address people reach the site at (env MOIM_BASE_URL).")
        var baseURL: String = Environment.value("MOIM_BASE_URL") ?? "http://127.0.0.1:8080"
        @OptionGroup var dataOptions: DataOptions

        func run() throws {
            guard let origin = PublicURL(baseURL)?.origin else {
                throw ValidationError("--base-url must look like https://run.example.org (http or https, a host, no path).")
            }
            let database = try dataOptions.open()
            defer { try? database.close() }
            guard let link = try App.resetLink(database: database, username: username, origin: origin) else {
                FileHandle.standardError.write(Data("No account is named \(username).\n".utf8))
                throw ExitCode.failure
            }
            print(link)
        }
    }

    struct Grant: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Give an existing account a staff role (admin by default).")

        @Argument(help: "The account's username.") var username: String
        @Option(help: "admin or moderator.") var role: String = "admin"
        @OptionGroup var dataOptions: DataOptions

        func run() throws {
            guard let role = User.Role(rawValue: role), role != .member else {
                throw ValidationError("--role must be admin or moderator")
            }
            try setRole(role, username: username, in: dataOptions)
        }
    }

    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make a staff account an ordinary member again.")

        @Argument(help: "The account's username.") var username: String
        @OptionGroup var dataOptions: DataOptions

        func run() throws {
            try setRole(.member, username: username, in: dataOptions)
        }
    }
}

private func setRole(_ role: User.Role, username: String, in options: DataOptions) throws {
    let database = try options.open()
    defer { try? database.close() }
    do {
        let user = try database.accounts.setRole(role, username: username)
        print("@\(user.username) is now \(user.role.rawValue); their sessions were ended.")
    } catch StorageError.notFound {
        FileHandle.standardError.write(Data("No account is named \(username).\n".utf8))
        throw ExitCode.failure
    }
}
