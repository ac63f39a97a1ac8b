// swift-tools-version:6.1
import PackageDescription

// The libFuzzer targets have no `main` of their own (libFuzzer provides it), so they exist
// only when asked for: `script/fuzz`. Our code is then built with libFuzzer's coverage and
// AddressSanitizer; the template compiler is not: it runs on the build machine, and libFuzzer
// would replace its `main`.
let fuzzing = Context.environment["FUZZ"] == "1"
let sanitized: [SwiftSetting] = fuzzing ? [.unsafeFlags(["-sanitize=fuzzer,address"])] : []

var targets: [Target] = [
    .systemLibrary(name: "CCmark", pkgConfig: "libcmark", providers: [.apt(["libcmark-dev"])]),
    .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
    .systemLibrary(name: "CEpoll"),
    // PostgreSQL's C client: built in seconds, and a one-row prepared query answers in
    // 40–53 µs here where postgres-nio bridged to our threads took 194–302 µs (and 613 s to build).
    .systemLibrary(name: "CLibpq", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
    .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
    // libvips (Debian's libvips-dev, with libheif for HEIC and AVIF): what Mastodon, Rails'
    // Active Storage and imgproxy decode and scale uploads with.
    .systemLibrary(name: "CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
    .target(name: "HTTP", dependencies: ["CEpoll"], swiftSettings: sanitized),
    // Web Mercator, map tiles and distances on the Earth: plain Swift, no dependencies.
    .target(name: "Geo", swiftSettings: sanitized),
    .target(name: "Markdown", dependencies: ["CCmark"], swiftSettings: sanitized),
    // Blocking TCP and TLS to other servers (a mail relay, an object store), and the small
    // HTTP client the object store is reached with.
    .target(name: "Network", dependencies: ["COpenSSL"], swiftSettings: sanitized),
    .target(name: "Mail", dependencies: ["Network"], swiftSettings: sanitized),
    .target(name: "Imaging", dependencies: ["CVips"], swiftSettings: sanitized),
    // Formats with no web and no database in them: checked numbers, GPX and stored tracks,
    // route drawings, QR codes, daylight, tar, and the few primitives of libsodium.
    .target(name: "Formats", dependencies: ["Geo", "CSodium"], swiftSettings: sanitized),
    .target(
        name: "Storage",
        dependencies: ["CLibpq", "Geo", "Formats", "Network", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift")],
        swiftSettings: sanitized
    ),
    // Templates/ compiled into Swift at build time, against the views Web declares; the
    // generated code writes into CompiledHTML's HTMLWriter.
    .executableTarget(name: "TemplateCompiler"),
    .target(name: "CompiledHTML", swiftSettings: sanitized),
    .plugin(name: "CompileTemplates", capability: .buildTool(), dependencies: ["TemplateCompiler"]),
    .target(
        name: "Web",
        dependencies: [
            "HTTP", "Storage", "Formats", "Markdown", "Mail", "Network", "Imaging", "Geo", "CSodium", "CompiledHTML",
            .product(name: "Prometheus", package: "swift-prometheus"),
        ],
        swiftSettings: sanitized,
        plugins: ["CompileTemplates"]
    ),
    .executableTarget(
        name: "Moim",
        dependencies: ["Web", "HTTP", "Storage", "Formats", "Markdown", "Mail", "Network", "Imaging", .product(name: "ArgumentParser", package: "swift-argument-parser")]
    ),
    .target(name: "TestSupport", dependencies: ["Storage", "Network", "COpenSSL"], path: "Tests/Support"),
    .testTarget(name: "HTTPTests", dependencies: ["HTTP", "TestSupport"]),
    .testTarget(name: "MarkdownTests", dependencies: ["Markdown"]),
    .testTarget(name: "GeoTests", dependencies: ["Geo"]),
    .testTarget(name: "FormatsTests", dependencies: ["Formats", "TestSupport"]),
    .testTarget(name: "MailTests", dependencies: ["Mail", "TestSupport"]),
    .testTarget(name: "NetworkTests", dependencies: ["Network", "COpenSSL", "TestSupport"], exclude: ["Fixtures"]),
    .testTarget(name: "ImagingTests", dependencies: ["Imaging", "TestSupport"]),
    .testTarget(name: "TemplateCompilerTests", dependencies: ["TemplateCompiler"]),
    .testTarget(name: "StorageTests", dependencies: ["Storage", "Formats", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")]),
    .testTarget(name: "WebTests", dependencies: ["Web", "HTTP", "Storage", "Formats", "Mail", "Network", "Imaging", "Geo", "CompiledHTML", "TestSupport"], exclude: ["Fixtures"]),
]

if fuzzing {
    targets += [
        .systemLibrary(name: "CFuzzer"),
        .executableTarget(
            name: "MoimFuzz",
            dependencies: ["HTTP", "Web", "Storage", "Formats", "Markdown", "Mail", "Network", "Imaging", "Geo", "CFuzzer", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: sanitized + [.unsafeFlags(["-parse-as-library"])],
            linkerSettings: [.unsafeFlags(["-sanitize=fuzzer,address"])]
        ),
    ]
}

var dependencies: [Package.Dependency] = [
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    // /metrics in Prometheus's text format: with swift-metrics and swift-atomics it adds ~8 s
    // to a clean debug build here.
    .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
]

// The TechEmpower "Fortunes" page on Moim's own stack and on Hummingbird 2 + swift-mustache +
// GRDB, for `script/bench` to measure side by side. Only built when asked for (BENCH=1):
// Hummingbird and SwiftNIO add minutes to a clean build, and neither is part of Moim.
if Context.environment["BENCH"] == "1" {
    dependencies += [
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
    ]
    targets += [
        .executableTarget(
            name: "FortunesMoim",
            dependencies: ["HTTP", "CompiledHTML", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Benchmarks/FortunesMoim",
            exclude: ["Templates"],
            plugins: ["CompileTemplates"]
        ),
        .executableTarget(
            name: "FortunesHummingbird",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Benchmarks/FortunesHummingbird"
        ),
    ]
}

let package = Package(
    name: "Moim",
    platforms: [.macOS(.v14)],
    products: [.executable(name: "moim", targets: ["Moim"])],
    dependencies: dependencies,
    targets: targets
)
