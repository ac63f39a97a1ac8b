/// HTTP/1.0 or HTTP/1.1, the only versions this server speaks.
public enum HTTPVersion: Sendable, Hashable {
    case http1_0
    case http1_1

    var text: String {
        switch self {
        case .http1_0: "HTTP/1.0"
        case .http1_1: "HTTP/1.1"
        }
    }
}
