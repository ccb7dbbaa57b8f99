// swift-tools-version: 6.1
// libFuzzer targets for mtt's parsers of outside input. Built with the fuzzer's coverage
// instrumentation and run by scripts/fuzz, never by `swift test`.
import PackageDescription

func fuzzTarget(_ name: String, _ products: [String]) -> Target {
    .executableTarget(
        name: name,
        dependencies: ["FuzzDriver"] + products.map { .product(name: $0, package: "mtt") },
        swiftSettings: [.swiftLanguageMode(.v6)])
}

let package = Package(
    name: "mtt-fuzz",
    dependencies: [.package(name: "mtt", path: "..")],
    targets: [
        .target(name: "FuzzDriver", swiftSettings: [.swiftLanguageMode(.v6)]),
        fuzzTarget("FuzzTTNJSON", ["MTTMQTT"]),
        fuzzTarget("FuzzNMEA", ["MTTGPS"]),
        fuzzTarget("FuzzATT", ["MTTBluetooth"]),
        fuzzTarget("FuzzModemLines", ["MTTSerial"]),
        fuzzTarget("FuzzEIR", ["MTTBluetooth"]),
        fuzzTarget("FuzzHTTPResponse", ["MTTHTTP"]),
        fuzzTarget("FuzzTimeText", ["MTTCore"]),
        fuzzTarget("FuzzStoredUplinks", ["MTTMQTT"]),
    ])
