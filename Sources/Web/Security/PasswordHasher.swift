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
        let strength = strength
        guard let hashed = try pool.run({ Self.hash(password, strength: strength) }) else {
            throw HTTPError(.serviceUnavailable, message: "Out of memory while hashing.")
        }
        return hashed
    }

    func verify(_ password: String, against hash: String) throws -> Bool {
        try pool.run { Self.verify(password, against: hash) }
    }

    /// An Argon2id string (`$argon2id$v=19$…`), computed on the calling thread; nil only when
    /// libsodium cannot get the memory.
    static func hash(_ password: String, strength: WebConfiguration.PasswordStrength) -> String? {
        let (ops, memory) = strength == .interactive
            ? (UInt64(crypto_pwhash_opslimit_interactive()), crypto_pwhash_memlimit_interactive())
            : (UInt64(crypto_pwhash_opslimit_min()), crypto_pwhash_memlimit_min())
        var output = [CChar](repeating: 0, count: Int(crypto_pwhash_STRBYTES))
        let length = UInt64(password.utf8.count)
        let status = password.withCString { crypto_pwhash_str(&output, $0, length, ops, memory) }
        guard status == 0 else { return nil }
        return String(decoding: output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func verify(_ password: String, against hash: String) -> Bool {
        let length = UInt64(password.utf8.count)
        return password.withCString { crypto_pwhash_str_verify(hash, $0, length) == 0 }
    }
}

/// Password hashing for tools outside a running site, such as `moim demo`.
public enum PasswordHashing {
    public static func hash(_ password: String) throws -> String {
        guard let hashed = PasswordHasher.hash(password, strength: .interactive) else { throw CryptoError.outOfMemory }
        return hashed
    }

    public enum CryptoError: Error { case outOfMemory }
}
