// swift-tools-version:6.0
import PackageDescription

// The libFuzzer target needs `-sanitize=fuzzer`, which a normal build cannot link,
// so it exists only when asked for: `FUZZ=1 script/fuzz`.
let fuzzing = Context.environment["FUZZ"] == "1"

var targets: [Target] = [
    .systemLibrary(name: "CCmark", pkgConfig: "libcmark", providers: [.apt(["libcmark-dev"])]),
    .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
    .systemLibrary(name: "CEpoll"),
    .target(name: "HTTP", dependencies: ["CEpoll"]),
    .target(name: "Markdown", dependencies: ["CCmark"]),
    .target(name: "Storage", dependencies: [.product(name: "GRDB", package: "GRDB.swift")]),
    .target(
        name: "Web",
        dependencies: [
            "HTTP", "Storage", "Markdown", "CSodium",
            .product(name: "Mustache", package: "swift-mustache"),
        ]
    ),
    .executableTarget(
        name: "Moim",
        dependencies: ["Web", .product(name: "ArgumentParser", package: "swift-argument-parser")]
    ),
    .target(name: "TestSupport", path: "Tests/Support"),
    .testTarget(name: "HTTPTests", dependencies: ["HTTP", "TestSupport"]),
    .testTarget(name: "MarkdownTests", dependencies: ["Markdown"]),
    .testTarget(name: "StorageTests", dependencies: ["Storage"]),
    .testTarget(name: "WebTests", dependencies: ["Web", "HTTP", "Storage", "TestSupport"]),
]

if fuzzing {
    targets.append(
        .executableTarget(
            name: "HTTPFuzz",
            dependencies: ["HTTP"],
            swiftSettings: [.unsafeFlags(["-parse-as-library", "-sanitize=fuzzer,address"])],
            linkerSettings: [.unsafeFlags(["-sanitize=fuzzer,address"])]
        )
    )
}

let package = Package(
    name: "Moim",
    platforms: [.macOS(.v14)],
    products: [.executable(name: "moim", targets: ["Moim"])],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: targets
)
