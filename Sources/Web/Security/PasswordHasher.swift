import CSodium
import HTTP

/// Argon2id password hashes through libsodium, computed on a small bounded pool.
struct PasswordHasher: Sendable {
    /// How hard each hash is; `interactive` is libsodium's (and OWASP's) choice for logins,
    /// `minimal` only keeps the test suite fast.
    enum Strength: Sendable {
        case interactive
        case minimal

        var limits: (ops: UInt64, memory: Int) {
            switch self {
            case .interactive: (UInt64(crypto_pwhash_opslimit_interactive()), crypto_pwhash_memlimit_interactive())
            case .minimal: (UInt64(crypto_pwhash_opslimit_min()), crypto_pwhash_memlimit_min())
            }
        }
    }

    let strength: Strength
    let pool: BoundedPool

    init(strength: Strength, pool: BoundedPool) {
        self.strength = strength
        self.pool = pool
    }

    func hash(_ password: String) throws -> String {
        let limits = strength.limits
        let hashed: String? = try pool.run {
            var output = [CChar](repeating: 0, count: Int(crypto_pwhash_STRBYTES))
            let length = UInt64(password.utf8.count)
            let status = password.withCString {
                crypto_pwhash_str(&output, $0, length, limits.ops, limits.memory)
            }
            return status == 0 ? String(decoding: output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
        }
        guard let hashed else { throw HTTPError(.serviceUnavailable, message: "Out of memory while hashing.") }
        return hashed
    }

    func verify(_ password: String, against hash: String) throws -> Bool {
        try pool.run {
            let length = UInt64(password.utf8.count)
            return password.withCString { crypto_pwhash_str_verify(hash, $0, length) == 0 }
        }
    }
}
