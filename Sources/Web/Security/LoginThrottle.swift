import Foundation
import Storage

/// Failed-login limits, per account and per client address.
///
/// In memory on one server: a restart forgets the counts, which an attacker cannot cause,
/// and a failed attempt costs no database write. Servers sharing a database count together
/// in it (`RateLimiter`).
struct LoginThrottle: Sendable {
    let perAccount: RateLimiter
    let perAddress: RateLimiter

    init(perAccount: Int = 5, perAddress: Int = 20, window: TimeInterval = 15 * 60, database: AppDatabase? = nil) {
        self.perAccount = RateLimiter("login-account", limit: perAccount, window: window, database: database)
        self.perAddress = RateLimiter("login-address", limit: perAddress, window: window, database: database)
    }

    /// Seconds until `account` from `address` may try again, or nil if it may try now.
    /// `account` names the account tried (its id when it exists), `address` the client as
    /// `AddressKey` counts it.
    func retryAfter(account: String, address: String) -> Int? {
        [perAccount.retryAfter(account.lowercased()), perAddress.retryAfter(address)].compactMap { $0 }.max()
    }

    func recordFailure(account: String, address: String) {
        perAccount.record(account.lowercased())
        perAddress.record(address)
    }

    func recordSuccess(account: String) {
        perAccount.reset(account.lowercased())
    }
}
