import Foundation
import TestSupport

/// Debian's nginx on loopback serving a folder of test tiles (`TestTiles`), as a tile server
/// would, and any other `locations` a test gives it; its access log says what it was asked for.
final class TileServer: @unchecked Sendable {  // immutable once started
    let folder: String
    let port: Int
    private let nginx = Process()

    init(locations: String = "") throws {
        folder = NSTemporaryDirectory() + "moim-tiles-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/tiles", withIntermediateDirectories: true)
        port = freeLoopbackPort()
        let configuration = """
            daemon off;
            master_process off;
            pid \(folder)/nginx.pid;
            error_log \(folder)/error.log;
            events {}
            http {
                access_log \(folder)/access.log;
                client_body_temp_path \(folder)/body;
                proxy_temp_path \(folder)/proxy;
                fastcgi_temp_path \(folder)/fastcgi;
                uwsgi_temp_path \(folder)/uwsgi;
                scgi_temp_path \(folder)/scgi;
                types { image/png png; }
                server {
                    listen 127.0.0.1:\(port);
                    root \(folder)/tiles;
                    \(locations)
                }
            }
            """
        try configuration.write(toFile: folder + "/nginx.conf", atomically: true, encoding: .utf8)
        nginx.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
        nginx.arguments = ["-p", folder, "-c", folder + "/nginx.conf"]
        nginx.standardError = FileHandle.nullDevice
        try nginx.run()
        for _ in 0..<100 where (try? LoopbackClient(port: port)) == nil { Thread.sleep(forTimeInterval: 0.05) }
    }

    deinit {
        if nginx.isRunning { kill(nginx.processIdentifier, SIGKILL) }
        nginx.waitUntilExit()
    }

    /// The template Moim is given.
    var template: String { "http://127.0.0.1:\(port)/{z}/{x}/{y}.png" }

    /// Puts tile `z/x/y` on the server.
    func add(z: Int, x: Int, y: Int) throws {
        try TestTiles.write(z: z, x: x, y: y, to: folder + "/tiles")
    }

    /// The paths the server was asked for, in order.
    var requests: [String] {
        let log = (try? String(contentsOfFile: folder + "/access.log", encoding: .utf8)) ?? ""
        return log.split(separator: "\n").compactMap { line in
            line.firstMatch(of: /"GET ([^ ]+) HTTP/)?.1.description
        }
    }
}

/// A tile server that takes connections and never answers.
final class SilentServer {
    let port: Int
    private let fd: Int32

    init(locations: String = "") throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.fd = fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        port = Int(UInt16(bigEndian: address.sin_port))
        guard bound == 0, listen(fd, 64) == 0 else { throw POSIXError(.EADDRINUSE) }
    }

    deinit { close(fd) }
}
