// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "mtt",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "mtt", targets: ["mtt"]),
        // For the packages in Benchmarks/ and Fuzz/, which depend on this one by path.
        .library(name: "MTTCore", targets: ["MTTCore"]),
        .library(name: "MTTMQTT", targets: ["MTTMQTT"]),
        .library(name: "MTTGPS", targets: ["MTTGPS"]),
        .library(name: "MTTBluetooth", targets: ["MTTBluetooth"]),
        .library(name: "MTTSerial", targets: ["MTTSerial"]),
        .library(name: "MTTHTTP", targets: ["MTTHTTP"]),
        .library(name: "MTTWeb", targets: ["MTTWeb"]),
        .library(name: "MTTConfigFile", targets: ["MTTConfigFile"]),
        .library(name: "MTTSystem", targets: ["MTTSystem"]),
        .library(name: "MTTPostgres", targets: ["MTTPostgres"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // The map's Prometheus metrics (its HTTP server is mtt's own: MTTWeb/Server/HTTPListener.swift says why).
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // The configuration file's TOML (toml++ underneath, so it lives in an adapter, not in MTTCore).
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        // The map's vector tiles (MVT is protobuf); the messages are generated once and committed
        // (scripts/generate-vector-tile), so no build runs the code generator.
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
    ],
    targets: [
        // C libraries from Debian's -dev packages. Each shim header stops the build with the
        // apt package to install when the library's header is missing.
        .systemLibrary(name: "CBlueZ", pkgConfig: "bluez", providers: [.apt(["libbluetooth-dev"])]),
        .systemLibrary(name: "CMosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),
        .systemLibrary(name: "CGPS", pkgConfig: "libgps", providers: [.apt(["libgps-dev"])]),
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        // TLS for https:// uploads, over mtt's own HTTP/1.1 client (the libssl libmosquitto already loads).
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        // The community database: PostgreSQL's own client library, with its URIs, PG* environment,
        // ~/.pgpass, service files and TLS. Its header only: the library is opened when a
        // PostgreSQL command first needs it (MTTPostgres/LibPQ.swift says why).
        .systemLibrary(name: "CLibPQ", providers: [.apt(["libpq-dev"])]),
        // glibc's <malloc.h>, for mallopt.
        .systemLibrary(name: "CMalloc"),
        .systemLibrary(name: "CSpawn"),

        // The domain, the store, the runs and the ports: no C library but SQLite, through GRDB (its
        // GRDBSQLite module is the same libsqlite3, for the rows MTTCore binds itself).
        .target(
            name: "MTTCore",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .target(name: "MTTBluetooth", dependencies: ["MTTCore", "CBlueZ"]),
        .target(name: "MTTSerial", dependencies: ["MTTCore"]),
        .target(name: "MTTMQTT", dependencies: ["MTTCore", "CMosquitto"]),
        .target(name: "MTTGPS", dependencies: ["MTTCore", "CGPS"]),
        .target(name: "MTTHTTP", dependencies: ["MTTCore", "COpenSSL"]),
        // The service manager: sd_notify (ready, watchdog, status, stopping) and the journal.
        .target(name: "MTTSystem", dependencies: ["MTTCore", "CSystemd", "CMalloc", "CSpawn"]),
        .target(name: "MTTConfigFile", dependencies: ["MTTCore", .product(name: "TOMLKit", package: "TOMLKit")]),
        // A community's coverage database on PostgreSQL/PostGIS (mtt community, the postgis sync target).
        .target(name: "MTTPostgres", dependencies: ["MTTCore", "CLibPQ"]),
        .target(
            name: "MTTWeb",
            dependencies: [
                "MTTCore",
                "CMalloc",
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            // The map's script is a JavaScript file of its own, embedded at build time; the vector
            // tile's schema is what its generated Swift was made from.
            exclude: ["Page/map.js", "Tiles/vector_tile.proto"],
            plugins: ["EmbedText"]),
        .executableTarget(name: "EmbedTextTool"),
        .plugin(name: "EmbedText", capability: .buildTool(), dependencies: ["EmbedTextTool"]),
        .executableTarget(
            name: "mtt",
            dependencies: [
                "MTTCore", "MTTBluetooth", "MTTSerial", "MTTMQTT", "MTTGPS", "MTTHTTP", "MTTWeb", "MTTConfigFile", "MTTSystem", "MTTPostgres",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]),

        .target(name: "TestSupport", dependencies: ["MTTCore", "MTTSerial", "MTTPostgres"], path: "Tests/Support"),
        .testTarget(
            name: "MTTCoreTests",
            dependencies: [
                "MTTCore", "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]),
        .testTarget(name: "MTTBluetoothTests", dependencies: ["MTTBluetooth", "TestSupport"]),
        .testTarget(name: "MTTSerialTests", dependencies: ["MTTSerial", "TestSupport"]),
        .testTarget(name: "MTTMQTTTests", dependencies: ["MTTMQTT", "TestSupport"]),
        .testTarget(name: "MTTGPSTests", dependencies: ["MTTGPS", "TestSupport"]),
        .testTarget(name: "MTTWebTests", dependencies: ["MTTWeb", "TestSupport"]),
        .testTarget(name: "MTTConfigTests", dependencies: ["MTTCore", "MTTConfigFile", "TestSupport"]),
        .testTarget(name: "MTTSyncTests", dependencies: ["MTTCore", "MTTMQTT", "MTTHTTP", "TestSupport"]),
        // Collection runs end to end: MTTCore's CollectionRun with the emulated BLE node and modems, a
        // real broker, and fetches from a loopback Storage Integration.
        .testTarget(name: "MTTRunTests", dependencies: ["MTTCore", "MTTBluetooth", "MTTSerial", "MTTMQTT", "MTTHTTP", "TestSupport"]),
        .testTarget(name: "MTTCLITests", dependencies: ["mtt", "TestSupport", "MTTSerial", "MTTBluetooth", "MTTMQTT", "MTTSystem", "MTTGPS"]),
        // The community database against a real PostgreSQL with PostGIS, started by the tests as the postgres user.
        .testTarget(name: "MTTPostgresTests", dependencies: ["MTTPostgres", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
