// swift-tools-version: 6.1
// libFuzzer targets for mtt's parsers of outside input. Built and run by scripts/fuzz, never by
// `swift test`: each target's entry point is libFuzzer's LLVMFuzzerTestOneInput, not main.
import PackageDescription

func fuzzTarget(_ name: String, _ products: [String]) -> Target {
    .executableTarget(
        name: name,
        dependencies: products.map { .product(name: $0, package: "mtt") },
        swiftSettings: [.swiftLanguageMode(.v6), .unsafeFlags(["-parse-as-library"])])
}

let package = Package(
    name: "mtt-fuzz",
    dependencies: [.package(name: "mtt", path: "..")],
    targets: [
        fuzzTarget("FuzzTTNJSON", ["MTTMQTT"]),
        fuzzTarget("FuzzNMEA", ["MTTGPS"]),
        fuzzTarget("FuzzATT", ["MTTBluetooth"]),
        fuzzTarget("FuzzModemLines", ["MTTSerial"]),
        fuzzTarget("FuzzEIR", ["MTTBluetooth"]),
    ])
