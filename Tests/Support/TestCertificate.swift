import Foundation

/// A self-signed certificate (for localhost and 127.0.0.1 unless told), made with the openssl command.
public struct TestCertificate: Sendable {
    public let certificate: String
    public let key: String

    public static func make(names: String = "DNS:localhost,IP:127.0.0.1") throws -> TestCertificate {
        let directory = NSTemporaryDirectory() + "moim-cert-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let made = TestCertificate(certificate: directory + "/cert.pem", key: directory + "/key.pem")
        let openssl = try runTool("/usr/bin/openssl", [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", made.key,
            "-out", made.certificate, "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=\(names)"])
        guard openssl.status == 0 else { throw CocoaError(.fileWriteUnknown) }
        return made
    }
}
