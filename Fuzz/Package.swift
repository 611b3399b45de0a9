// swift-tools-version:6.0
// libFuzzer targets for the parsers that read what a server sends. Build and run them on Linux
// with `.ci/fuzz`. A normal build of the main package never sees this package, so its fuzzer
// entry points (which only link with `-sanitize=fuzzer`, which brings libFuzzer) cannot break it.
import PackageDescription

let settings: [SwiftSetting] = [.swiftLanguageMode(.v6)]
// Only the fuzz targets link libFuzzer: `-Xswiftc -sanitize=fuzzer` on the command line would
// reach the main package's build tool (EmbedMigrations) too, which has no fuzz entry point and
// then fails to link. `.ci/fuzz` instead builds every module with AddressSanitizer and the
// coverage libFuzzer reads: `-sanitize=address -sanitize-coverage=edge,inline-8bit-counters,…`.
let fuzzer: [SwiftSetting] = settings + [.unsafeFlags(["-sanitize=fuzzer,address"])]
let fuzzerLink: [LinkerSetting] = [.unsafeFlags(["-sanitize=fuzzer,address"])]

let package = Package(
    name: "SlippersFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Slippers", path: "..")],
    targets: [
        // Starts libFuzzer's driver from each target's own `main`.
        .target(name: "FuzzDriver", swiftSettings: settings),
        .executableTarget(
            name: "FuzzJSONScanner",
            dependencies: ["FuzzDriver", .product(name: "SlippersNetworking", package: "Slippers")],
            swiftSettings: fuzzer, linkerSettings: fuzzerLink),
        .executableTarget(
            name: "FuzzTapeDecoder",
            dependencies: [
                "FuzzDriver",
                .product(name: "Slippers", package: "Slippers"),
                .product(name: "SlippersSQLite", package: "Slippers"),
            ],
            swiftSettings: fuzzer, linkerSettings: fuzzerLink),
        .executableTarget(
            name: "FuzzLinkHeader",
            dependencies: ["FuzzDriver", .product(name: "SlippersNetworking", package: "Slippers")],
            swiftSettings: fuzzer, linkerSettings: fuzzerLink),
        .executableTarget(
            name: "FuzzStyleDetection",
            dependencies: ["FuzzDriver", .product(name: "SlippersNetworking", package: "Slippers")],
            swiftSettings: fuzzer, linkerSettings: fuzzerLink),
    ]
)
