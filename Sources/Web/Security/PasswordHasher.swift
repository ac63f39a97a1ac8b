import CSodium
import HTTP

/// Argon2id password hashes through libsodium, computed on a small bounded pool.
struct PasswordHasher: Sendable {
    let strength: WebConfiguration.PasswordStrength
    let pool: BoundedPool

    init(strength: WebConfiguration.PasswordStrength, pool: BoundedPool) {
        self.strength = strength
        self.pool = pool
    }

    func hash(_ password: String) throws -> String {
        let limits = strength == .interactive
            ? (ops: UInt64(crypto_pwhash_opslimit_interactive()), memory: crypto_pwhash_memlimit_interactive())
            : (ops: UInt64(crypto_pwhash_opslimit_min()), memory: crypto_pwhash_memlimit_min())
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
