import CFuzzer
import Foundation

/// libFuzzer targets, one per parser that reads outside data. `script/fuzz TARGET SECONDS`
/// builds this with AddressSanitizer and runs the target named by `FUZZ_TARGET`.
///
/// A target returns normally for any input its parser refuses; it traps (and libFuzzer
/// reports a crash) only when the code under test traps or breaks a property it promises,
/// such as "a local path never leads off-site".
enum Targets {
    typealias Target = @Sendable (UnsafeBufferPointer<UInt8>) -> Void

    static let all: [String: Target] = [
        "http-request": HTTPTargets.request,
        "multipart": HTTPTargets.multipart,
        "urlencoded": HTTPTargets.urlEncoded,
        "cookies": HTTPTargets.cookies,
        "forwarded-for": HTTPTargets.forwardedFor,
        "static-path": HTTPTargets.staticPath,
        "if-none-match": HTTPTargets.ifNoneMatch,
        "gpx": FormatsTargets.gpx,
        "record-numbers": WebTargets.recordNumbers,
        "image": WebTargets.image,
        "markdown": WebTargets.markdown,
        "message": WebTargets.message,
        "route": WebTargets.route,
        "map-query": WebTargets.mapQuery,
        "local-path": WebTargets.localPath,
        "accept-language": WebTargets.acceptLanguage,
        "search": WebTargets.search,
        "qr-code": FormatsTargets.qrCode,
        "smtp-reply": MailTargets.smtpReply,
        "mail-message": MailTargets.mailMessage,
        "mail-link": MailTargets.mailLink,
        "tar-header": FormatsTargets.tarHeader,
        "postgres-values": StorageTargets.postgresValues,
        "thread-order": StorageTargets.threadOrder,
        "width-list": StorageTargets.widthList,
        "wal-position": StorageTargets.walPosition,
        "changes": StorageTargets.changes,
        "object-store-answer": NetworkTargets.objectStoreAnswer,
        "sign-in-answer": NetworkTargets.signInAnswer,
        "payment-answer": NetworkTargets.paymentAnswer,
        "payment-webhook": NetworkTargets.paymentWebhook,
        "work-address": WebTargets.workAddress,
        "user-agent": WebTargets.userAgent,
        "cbor": NetworkTargets.cbor,
        "authenticator-data": NetworkTargets.authenticatorData,
    ]

    nonisolated(unsafe) static var selected: Target = { _ in }
}

/// Stops the run: the input broke a property the code promises.
func violated(_ property: String) -> Never {
    FileHandle.standardError.write(Data("property violated: \(property)\n".utf8))
    abort()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    Targets.selected(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    return 0
}

/// SwiftPM links an executable's entry point as `MoimFuzz_main`; pick the target, then hand
/// control to libFuzzer.
@_cdecl("MoimFuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    let name = ProcessInfo.processInfo.environment["FUZZ_TARGET"] ?? ""
    guard let target = Targets.all[name] else {
        FileHandle.standardError.write(Data("FUZZ_TARGET must be one of: \(Targets.all.keys.sorted().joined(separator: ", "))\n".utf8))
        return 2
    }
    Targets.selected = target
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { data, size in fuzz(data, size) }
}
