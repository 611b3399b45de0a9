// swift-tools-version:6.0
import PackageDescription

let swift6: [SwiftSetting] = [.swiftLanguageMode(.v6)]

/// Where the networking module links async-http-client and SwiftNIO: everywhere but the platforms of apps,
/// whose transport is URLSession.
let nioPlatformList: [Platform] = [.linux, .macOS, .windows, .android, .openbsd, .wasi]
let nioPlatforms = TargetDependencyCondition.when(platforms: nioPlatformList)

let package = Package(
    name: "Slippers",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
    products: [
        .library(name: "Slippers", targets: ["Slippers"]),
        // The seam between syncing and a database: what a backend stores and the sync that fills it.
        .library(name: "SlippersStorage", targets: ["SlippersStorage"]),
        .library(name: "SlippersSQLite", targets: ["SlippersSQLite"]),
        .library(name: "SlippersNetworking", targets: ["SlippersNetworking"]),
        // One import for apps: the four above, the HTTP conveniences, sync planning and PagedList.
        .library(name: "SlippersKit", targets: ["SlippersKit"]),
        // The PostgreSQL backend, for a fleet of workers on one database: an app that does not use it does not build it.
        .library(name: "SlippersPostgres", targets: ["SlippersPostgres"]),
        // A server program's fleet: SlippersKit's Syncer run by SlippersPostgres's worker, with no sync of its own to write.
        .library(name: "SlippersFleet", targets: ["SlippersFleet"]),
        .executable(name: "slippers", targets: ["SlippersCLI"]),
        .executable(name: "slippers-bench", targets: ["SlippersBench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        // Named for the trust roots of --cacert and for telling TLS failures apart; async-http-client builds it anyway.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // SHA-256 and HMAC for fingerprints of header values; async-http-client and postgres-nio build it anyway.
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/vapor/multipart-kit", from: "4.7.1"),
        // Named, although async-http-client brings it, because the libraries take a `Logger` in their API.
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // PostgreSQL's wire protocol, for SlippersPostgres only.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // The metrics API the libraries record through: no NIO, no backend; a program picks the backend.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        // The Prometheus text format of the worker's /metrics, for the CLI only.
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // Signals and graceful shutdown of a server's services: the fleet worker, for SlippersPostgres and the CLI.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // The tracing API of the sync's and the requests' spans: no backend; async-http-client builds it anyway.
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
    ],
    targets: [
        // Core vocabulary: no I/O, no dependencies.
        .target(name: "Slippers", swiftSettings: swift6),
        .target(
            name: "SlippersNetworking",
            dependencies: [
                "Slippers",
                // The transport of Linux and macOS; iOS, tvOS, watchOS and visionOS apps use URLSession and build none of it.
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: nioPlatforms),
                // Named for their types in the transport's errors and buffers; async-http-client builds them anyway.
                .product(name: "NIOCore", package: "swift-nio", condition: nioPlatforms),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: nioPlatforms),
                .product(name: "NIOPosix", package: "swift-nio", condition: nioPlatforms),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras", condition: nioPlatforms),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: nioPlatforms),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                // Requests, refusals, retries and bytes by origin: the metrics API only, no backend.
                .product(name: "CoreMetrics", package: "swift-metrics"),
                // A span per request, by origin: the tracing API only, no backend.
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swift6
        ),
        // What a cache backend stores and the storage-generic sync over it: no database of its own.
        .target(
            name: "SlippersStorage",
            // Crypto: the HMAC-SHA-256 of the fingerprints of header values both backends store.
            // CoreMetrics: the sync's counters and timers, recorded into whatever backend the program bootstraps.
            // Tracing: a span per list run and per page, for whatever tracer the program bootstraps.
            dependencies: [
                "Slippers", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swift6
        ),
        .target(
            name: "SlippersSQLite",
            dependencies: [
                "Slippers", "SlippersStorage", .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, for the statements of the write path run once per item (BoundStatement).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swift6,
            plugins: ["EmbedMigrationsPlugin"]
        ),
        // The cache in PostgreSQL: its schema (Migrations/postgres/*.sql, embedded) and the connection to it.
        .target(
            name: "SlippersPostgres",
            dependencies: [
                "Slippers", "SlippersStorage", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"), .product(name: "Logging", package: "swift-log"),
                // The worker's metrics, its graceful shutdown, and the HTTP server of its /metrics and /health.
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swift6,
            plugins: ["EmbedMigrationsPlugin"]
        ),
        // One import for apps, above the storage seam, the cache and networking: re-exports them and adds what an app needs.
        .target(
            name: "SlippersKit",
            dependencies: [
                "Slippers", "SlippersStorage", "SlippersSQLite", "SlippersNetworking",
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swift6
        ),
        // The fleet's default sync: PostgresCache as a SharedListStorage, its shared rate budgets, and
        // FleetWorker running SlippersKit's Syncer. Above both, so that SlippersKit never links PostgreSQL.
        .target(
            name: "SlippersFleet",
            dependencies: [
                "Slippers", "SlippersStorage", "SlippersNetworking", "SlippersKit", "SlippersPostgres",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swift6
        ),
        // Embeds Migrations/*.sql into SlippersSQLite at build time: no resource lookup at run time.
        .executableTarget(name: "EmbedMigrations", swiftSettings: swift6),
        .plugin(
            name: "EmbedMigrationsPlugin",
            capability: .buildTool(),
            dependencies: ["EmbedMigrations"]
        ),
        // The local paginated JSON API on 127.0.0.1 (SwiftNIO), for the demo, the benchmark and the
        // tests; not a product. It holds no test fixture, as the `slippers` binary links it.
        .target(
            name: "LocalAPI",
            dependencies: [
                "Slippers",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swift6
        ),
        .executableTarget(
            name: "SlippersCLI",
            dependencies: [
                "Slippers", "SlippersStorage", "SlippersSQLite", "SlippersNetworking", "SlippersKit", "LocalAPI",
                "TableOutput", "SlippersPostgres", "SlippersFleet",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                // The backend of `worker --metrics`, bootstrapped here only: libraries record through swift-metrics.
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swift6
        ),
        // Aligned text tables, for the CLI and the benchmark; not a product.
        .target(name: "TableOutput", swiftSettings: swift6),
        .testTarget(name: "TableOutputTests", dependencies: ["TableOutput"], swiftSettings: swift6),
        // The benchmark: figures against baselines a user would write.
        // GRDBSQLite is the raw SQLite C API, for the baselines that do without GRDB.
        .executableTarget(
            name: "SlippersBench",
            dependencies: [
                "Slippers", "SlippersStorage", "SlippersSQLite", "SlippersNetworking", "SlippersKit", "LocalAPI",
                "TableOutput",
                // The fleet's figures start their own PostgreSQL, as the tests do.
                "LocalPostgres",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // The cost of the sync's spans without a tracer, and with one that keeps them.
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            // Its README holds the method and the figures.
            exclude: ["README.md"],
            swiftSettings: swift6
        ),
        .testTarget(name: "SlippersTests", dependencies: ["Slippers"], swiftSettings: swift6),
        // The storage seam's contracts, each run on a file and on a PostgreSQL server the test starts.
        .testTarget(
            name: "SlippersStorageTests",
            dependencies: [
                "Slippers", "SlippersStorage", "SlippersSQLite", "SlippersPostgres", "SlippersTestSupport",
                "SlippersKit", "SlippersNetworking", "LocalAPI",
            ],
            swiftSettings: swift6
        ),
        .testTarget(
            name: "SlippersSQLiteTests",
            dependencies: [
                "SlippersStorage", "SlippersSQLite", "SlippersTestSupport", "StoreWriter", "PagerWorker",
                .product(name: "InMemoryLogging", package: "swift-log"),
            ],
            swiftSettings: swift6
        ),
        // Linked into the test runner: bounds how many tests run at once (see its one C file).
        .target(name: "TestParallelism", path: "Tests/Support/TestParallelism"),
        // Helpers shared by the test targets: temporary directories, a recorder of asynchronous values.
        .target(
            name: "SlippersTestSupport", dependencies: ["LocalPostgres"], path: "Tests/Support/SlippersTestSupport",
            swiftSettings: swift6),
        // A throwaway PostgreSQL server on 127.0.0.1 (initdb, pg_ctl), temporary directories and child
        // processes: for the bench's fleet figures and the tests, never in a product.
        .target(name: "LocalPostgres", swiftSettings: swift6),
        // The servers only tests need, on LocalAPI's listener: the hostile server (malformed HTTP,
        // endless and gzip-bomb bodies) and the https server with its test certificates.
        .target(
            name: "SlippersFixtures",
            dependencies: [
                "LocalAPI",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            path: "Tests/Support/SlippersFixtures",
            swiftSettings: swift6
        ),
        // The cached pager over the HTTP page source and the fixture server: the layers together.
        .testTarget(
            name: "SlippersIntegrationTests",
            dependencies: [
                "SlippersStorage", "SlippersSQLite", "SlippersNetworking", "SlippersKit", "LocalAPI",
                "SlippersTestSupport",
                // A tracer that keeps the spans of a sync, for the tests of its traces.
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swift6
        ),
        // The app-facing module against the fixture API and real cache files: PagedList, pagers from URLs, sync plans.
        .testTarget(
            name: "SlippersKitTests",
            dependencies: ["SlippersKit", "SlippersStorage", "LocalAPI", "SlippersTestSupport", "FeedApp"],
            // Cache files written by earlier releases, read by path.
            exclude: ["Fixtures"],
            swiftSettings: swift6
        ),
        // A child process for the cache tests: writes pages until it is killed.
        .executableTarget(
            name: "StoreWriter",
            dependencies: ["Slippers", "SlippersStorage", "SlippersSQLite"],
            path: "Tests/Support/StoreWriter",
            swiftSettings: swift6
        ),
        // A child process for the CLI tests: runs a command and reports its own peak memory and CPU time.
        .executableTarget(
            name: "MeasuringLauncher",
            path: "Tests/Support/MeasuringLauncher",
            swiftSettings: swift6
        ),
        // A child process for the feed tests: a tiny app with a PagedList of a timeline over a cache file.
        .executableTarget(
            name: "FeedApp",
            dependencies: ["SlippersKit"],
            path: "Tests/Support/FeedApp",
            swiftSettings: swift6
        ),
        // A child process for the pager tests: pages a list through a CachedPager, then exits.
        .executableTarget(
            name: "PagerWorker",
            dependencies: ["Slippers", "SlippersStorage", "SlippersSQLite"],
            path: "Tests/Support/PagerWorker",
            swiftSettings: swift6
        ),
        .testTarget(
            name: "SlippersNetworkingTests",
            dependencies: [
                "SlippersNetworking", "LocalAPI", "SlippersFixtures", "SlippersTestSupport",
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swift6
        ),
        // SlippersPostgres against a PostgreSQL server the tests start themselves.
        .testTarget(
            name: "SlippersPostgresTests",
            dependencies: [
                "Slippers", "SlippersStorage", "SlippersSQLite", "SlippersPostgres", "SlippersTestSupport",
                // A server app's worker: HTTP pages from the local API, planned as SlippersKit plans them.
                "SlippersKit", "LocalAPI",
                // Workers sharing an origin's rate-limit budget through the cache.
                "SlippersNetworking",
            ],
            swiftSettings: swift6
        ),
        // The fleet's default sync: workers of a server program running the library's Syncer on PostgreSQL.
        .testTarget(
            name: "SlippersFleetTests",
            dependencies: [
                "Slippers", "SlippersKit", "SlippersPostgres", "SlippersFleet", "SlippersTestSupport", "LocalAPI",
            ],
            swiftSettings: swift6
        ),
        .testTarget(
            name: "SlippersBenchTests",
            dependencies: [
                "SlippersBench", "SlippersStorage", "SlippersSQLite", "SlippersNetworking", "SlippersTestSupport",
            ],
            swiftSettings: swift6
        ),
        // Runs the built `slippers` binary against databases seeded with the cache.
        .testTarget(
            name: "SlippersCLITests",
            dependencies: [
                "SlippersCLI", "Slippers", "SlippersStorage", "SlippersSQLite", "SlippersKit", "LocalAPI",
                "SlippersFixtures",
                "SlippersTestSupport",
                "MeasuringLauncher", "TestParallelism",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swift6
        ),
    ]
)
