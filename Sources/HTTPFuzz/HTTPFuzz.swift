import CFuzzer
import HTTP

/// libFuzzer entry point: feeds the input to the request parser in two pieces (to exercise
/// resumption), drains every request and parses multipart bodies. Any crash or sanitizer
/// report is a bug.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = UnsafeBufferPointer(start: data, count: size)
    var limits = HTTPRequestParser.Limits()
    limits.body = 4096
    limits.uploadBody = 8192
    var parser = HTTPRequestParser(limits: limits)
    let split = size > 0 ? Int(bytes[0]) % (size + 1) : 0
    parser.append(Array(bytes[0..<split]))
    while (try? parser.nextRequest()) != nil {}
    parser.append(Array(bytes[split...]))
    while let request = try? parser.nextRequest() {
        _ = request.query
        _ = request.cookies
        _ = request.keepAlive
        if let boundary = MultipartForm.boundary(contentType: request.headers["content-type"] ?? "") {
            _ = try? MultipartForm(parsing: request.body, boundary: boundary)
        }
    }
    return 0
}

/// SwiftPM links an executable's entry point as `HTTPFuzz_main`; hand control to libFuzzer.
@_cdecl("HTTPFuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { data, size in fuzz(data, size) }
}
