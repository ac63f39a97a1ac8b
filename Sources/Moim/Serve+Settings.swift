import ArgumentParser
import Foundation
import HTTP
import Mail
import Network
import Web

/// The flags that need more than a type to check, each checked into what the app is given.
extension Serve {
    func proxies() throws -> TrustedProxies {
        let ranges = try trustedProxies.map { text in
            guard let range = AddressRange(text) else { throw ValidationError("--trusted-proxy \(text) is not an address or a block such as 10.0.0.0/8.") }
            return range
        }
        return TrustedProxies(ranges)
    }

    /// The sign-in providers turned on by `--sign-in-file` and the flags (never the same field both ways).
    func signInProviders() throws -> [OpenIDProvider.Configuration] {
        var settings = try flag(signInFileFlag, "MOIM_SIGN_IN_FILE").map { try SignInSettings(file: $0) } ?? SignInSettings()
        let flags: [(String, String, String?, String)] = [
            ("kakao", "client_id", kakaoClientIDFlag, "MOIM_KAKAO_CLIENT_ID"), ("kakao", "client_secret", kakaoClientSecretFlag, "MOIM_KAKAO_CLIENT_SECRET"),
            ("naver", "client_id", naverClientIDFlag, "MOIM_NAVER_CLIENT_ID"), ("naver", "client_secret", naverClientSecretFlag, "MOIM_NAVER_CLIENT_SECRET"),
            ("google", "client_id", googleClientIDFlag, "MOIM_GOOGLE_CLIENT_ID"), ("google", "client_secret", googleClientSecretFlag, "MOIM_GOOGLE_CLIENT_SECRET"),
            ("apple", "client_id", appleClientIDFlag, "MOIM_APPLE_CLIENT_ID"), ("apple", "team_id", appleTeamIDFlag, "MOIM_APPLE_TEAM_ID"),
            ("apple", "key_id", appleKeyIDFlag, "MOIM_APPLE_KEY_ID"), ("apple", "private_key_file", applePrivateKeyFlag, "MOIM_APPLE_PRIVATE_KEY"),
            ("oidc", "issuer", oidcIssuerFlag, "MOIM_OIDC_ISSUER"), ("oidc", "client_id", oidcClientIDFlag, "MOIM_OIDC_CLIENT_ID"),
            ("oidc", "client_secret", oidcClientSecretFlag, "MOIM_OIDC_CLIENT_SECRET"), ("oidc", "name", oidcNameFlag, "MOIM_OIDC_NAME"),
        ]
        for (provider, field, value, environment) in flags { try settings.set(provider, field, flag(value, environment)) }
        let providers = try settings.providers()
        if !providers.isEmpty, baseURL == nil {
            throw ValidationError("sign-in providers need --base-url: it is the address they send people back to.")
        }
        return providers
    }

    func tileSource() throws -> TileSource? {
        guard let tileURL else { return nil }
        guard let attribution = tileAttribution?.trimmingCharacters(in: .whitespaces), !attribution.isEmpty else {
            throw ValidationError("--tile-url needs --tile-attribution: tile licences ask for their credit on every map.")
        }
        guard var source = TileSource(template: tileURL, attribution: attribution) else {
            throw ValidationError("--tile-url must be an http(s) URL with {z}, {x} and {y} in its path, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png")
        }
        guard let size = byteSize(tileCacheSize), size >= 1 << 20 else {
            throw ValidationError("--tile-cache-size must be a size of at least 1M, e.g. 512M or 2G.")
        }
        guard (1...60).contains(tileTimeout) else { throw ValidationError("--tile-timeout must be 1 to 60 seconds.") }
        source.cacheSize = size
        source.timeout = tileTimeout
        return source
    }

    /// The mail settings, checked: nil without --smtp-url.
    func mailConfiguration() throws -> MailConfiguration? {
        guard let smtpURL else { return nil }
        guard let server = SMTPServer(url: smtpURL) else {
            throw ValidationError("--smtp-url must look like smtp://user:pass@host:587 or smtps://user:pass@host:465 (percent-encode @ and : inside the password).")
        }
        guard let site = baseURL.flatMap(PublicURL.init) else {
            throw ValidationError("--smtp-url needs --base-url: mail carries absolute links to the site.")
        }
        guard let from = Self.mailbox(mailFrom ?? "Moim <moim@\(site.host)>") else {
            throw ValidationError("--mail-from must look like 'Moim <moim@run.example.org>' or moim@run.example.org.")
        }
        guard (1...3_600).contains(mailRetry) else { throw ValidationError("--mail-retry must be between 1 and 3600 seconds.") }
        var configuration = MailConfiguration(server: server, from: from)
        configuration.trustedCertificates = smtpCAFile
        configuration.firstRetry = TimeInterval(mailRetry)
        return configuration
    }

    /// `Name <address>` or a bare address.
    static func mailbox(_ text: String) -> MailAddress? {
        let text = text.trimmingCharacters(in: .whitespaces)
        var name = "", address = text
        if text.hasSuffix(">"), let open = text.lastIndex(of: "<") {
            name = text[..<open].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            address = String(text[text.index(after: open)..<text.index(before: text.endIndex)])
        }
        let mailbox = MailAddress(name: name, address: address)
        // The same checks a message makes: no way to break a header from here either.
        guard (try? MailMessage(from: mailbox, to: mailbox, subject: "", text: "", html: "", domain: "check").rendered()) != nil else { return nil }
        return mailbox
    }
}

/// A size as people write it: 1048576, 512K, 256M, 2G (up to a terabyte).
func byteSize(_ text: String) -> Int? {
    let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40]
    let upper = text.uppercased().replacingOccurrences(of: "B", with: "")
    let unit = upper.last.flatMap { units[$0] }
    let digits = unit == nil ? upper : String(upper.dropLast())
    guard digits.utf8.count <= 13, let number = Int(digits), number >= 0 else { return nil }
    let (size, overflow) = number.multipliedReportingOverflow(by: unit ?? 1)
    return overflow || size > 1 << 40 ? nil : size
}
