// swift-tools-version: 6.1
// mtt's benchmarks, a package of their own so that `swift test` in the main package never builds
// them. Run from this folder: swift package benchmark (see the README's Performance section).
import PackageDescription

let package = Package(
    name: "mtt-benchmarks",
    dependencies: [
        .package(name: "mtt", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The main package's test support (a link to ../Tests/Support), built here as a target of
        // this package: the main package ships no test library.
        .target(
            name: "TestSupport",
            dependencies: [.product(name: "MTTCore", package: "mtt"), .product(name: "MTTSerial", package: "mtt"), .product(name: "MTTPostgres", package: "mtt")],
            path: "Benchmarks/TestSupport",
            swiftSettings: [.swiftLanguageMode(.v6)]),
        .executableTarget(
            name: "MTTBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "MTTCore", package: "mtt"),
                .product(name: "MTTMQTT", package: "mtt"),
                .product(name: "MTTHTTP", package: "mtt"),
                .product(name: "MTTSerial", package: "mtt"),
                .product(name: "MTTWeb", package: "mtt"),
                .product(name: "MTTPostgres", package: "mtt"),
                "TestSupport",
            ],
            path: "Benchmarks/MTTBenchmarks",
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        // The country's mappers of scripts/community-bench: their databases, written before it runs.
        .executableTarget(
            name: "CountryDrives",
            dependencies: [.product(name: "MTTCore", package: "mtt")],
            path: "Benchmarks/CountryDrives",
            swiftSettings: [.swiftLanguageMode(.v6)]),
    ])
