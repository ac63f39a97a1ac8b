import Foundation

/// The address people reach the site at (`--base-url https://run.example.org`), for every
/// absolute link: calendar files, Atom feeds. Without it, links use the request's `Host`, and
/// a calendar that reached the site under two names would hold each meetup twice.
public struct PublicURL: Sendable, Equatable {
    /// `https://run.example.org` or `http://127.0.0.1:8080`: no path, no trailing slash.
    public let origin: String
    /// `run.example.org`, for calendar UIDs.
    public let host: String

    /// Accepts `http` or `https` with a host, an optional port and at most a `/` for a path.
    public init?(_ text: String) {
        guard let components = URLComponents(string: text.trimmingCharacters(in: .whitespaces)),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = components.host?.lowercased(), !host.isEmpty,
              components.user == nil, components.password == nil, components.query == nil, components.fragment == nil,
              components.path.isEmpty || components.path == "/"
        else { return nil }
        let port = components.port.map { ":\($0)" } ?? ""
        self.origin = "\(scheme)://\(host)\(port)"
        self.host = host
    }

    /// From a request's `Host` header, when no base URL is configured.
    init(requestHost: String?, secure: Bool) {
        let host = requestHost.flatMap { $0.isEmpty ? nil : $0.lowercased() } ?? "localhost"
        origin = "\(secure ? "https" : "http")://\(host)"
        self.host = host
    }
}
