import COpenSSL
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Why a connection could not be made or broke, in words for a log line.
public struct TransportError: Error, Equatable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}

/// A blocking TCP connection to another server (a mail relay, an object store), optionally
/// upgraded to TLS (OpenSSL, with the system's trusted certificates and the host name
/// checked). Every wait is bounded by `timeout`, so a server that stops answering cannot hold
/// the caller for ever.
public final class TCPTransport {
    private let fd: Int32
    private var context: OpaquePointer?
    private var tls: OpaquePointer?

    public init(host: String, port: Int, timeout: Int) throws(TransportError) {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let first = found else {
            throw TransportError("cannot resolve \(host)")
        }
        defer { freeaddrinfo(first) }
        var lastError = "no address for \(host)"
        var info: UnsafeMutablePointer<addrinfo>? = first
        while let current = info {
            info = current.pointee.ai_next
            let socket = socket(current.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard socket >= 0 else { continue }
            switch Self.connect(socket, to: current.pointee, timeout: timeout) {
            case nil:
                var limit = timeval(tv_sec: timeout, tv_usec: 0)
                setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
                setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
                fd = socket
                return
            case let error?:
                lastError = "cannot connect to \(host):\(port): \(error)"
                Glibc.close(socket)
            }
        }
        throw TransportError(lastError)
    }

    deinit {
        if let tls { SSL_free(tls) }
        if let context { SSL_CTX_free(context) }
        Glibc.close(fd)
    }

    /// Connects without blocking for longer than `timeout`; nil on success, else why not.
    private static func connect(_ socket: Int32, to address: addrinfo, timeout: Int) -> String? {
        let flags = fcntl(socket, F_GETFL)
        _ = fcntl(socket, F_SETFL, flags | O_NONBLOCK)
        defer { _ = fcntl(socket, F_SETFL, flags) }
        if Glibc.connect(socket, address.ai_addr, address.ai_addrlen) == 0 { return nil }
        guard errno == EINPROGRESS else { return String(cString: strerror(errno)) }
        var waiting = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
        // At most a day, so that the milliseconds cannot overflow.
        let milliseconds = Int32(min(max(timeout, 0), 86_400) * 1_000)
        guard poll(&waiting, 1, milliseconds) == 1 else { return "timed out" }
        var failure: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(socket, SOL_SOCKET, SO_ERROR, &failure, &length)
        return failure == 0 ? nil : String(cString: strerror(failure))
    }

    /// Starts TLS on the connection and checks the certificate against the trusted roots (and
    /// the PEM file `certificates`, when given) and the host name.
    public func startTLS(host: String, trusting certificates: String?) throws(TransportError) {
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw TransportError("TLS: \(Self.openSSLError())") }
        self.context = context
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        // The system's roots; SSL_CERT_FILE / SSL_CERT_DIR name others (a private relay's CA).
        SSL_CTX_set_default_verify_paths(context)
        if let certificates, SSL_CTX_load_verify_locations(context, certificates, nil) != 1 {
            throw TransportError("cannot read the certificates in \(certificates)")
        }
        guard let tls = SSL_new(context) else { throw TransportError("TLS: \(Self.openSSLError())") }
        self.tls = tls
        var address = in6_addr()
        let isAddress = inet_pton(AF_INET, host, &address) == 1 || inet_pton(AF_INET6, host, &address) == 1
        if isAddress {
            X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(tls), host)
        } else {
            SSL_set1_host(tls, host)
            moim_SSL_set_tlsext_host_name(tls, host)
        }
        SSL_set_fd(tls, fd)
        guard SSL_connect(tls) == 1 else {
            let verification = SSL_get_verify_result(tls)
            let reason = verification == X509_V_OK ? Self.openSSLError() : String(cString: X509_verify_cert_error_string(verification))
            throw TransportError("TLS with \(host) failed: \(reason)")
        }
    }

    public var isEncrypted: Bool { tls != nil }

    public func write(_ bytes: [UInt8]) throws(TransportError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                let start = buffer.baseAddress! + offset
                let count = buffer.count - offset
                return tls.map { Int(SSL_write($0, start, Int32(clamping: count))) } ?? Glibc.write(fd, start, count)
            }
            guard written > 0 else { throw TransportError("the connection broke while sending") }
            offset += written
        }
    }

    /// Waits for the next bytes, at most `limit` of them; empty when the other side closed
    /// the connection.
    public func read(upTo limit: Int = 16_384) throws(TransportError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: max(1, limit))
        let count = buffer.withUnsafeMutableBytes { buffer in
            tls.map { Int(SSL_read($0, buffer.baseAddress, Int32(clamping: buffer.count))) } ?? Glibc.read(fd, buffer.baseAddress, buffer.count)
        }
        if count > 0 { return Array(buffer[0..<count]) }
        if count == 0, tls.map({ SSL_get_error($0, 0) == SSL_ERROR_ZERO_RETURN }) ?? true { return [] }
        throw TransportError("the server stopped answering or the connection broke")
    }

    private static func openSSLError() -> String {
        let code = ERR_get_error()
        guard code != 0 else { return "unknown error" }
        var text = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &text, text.count)
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
