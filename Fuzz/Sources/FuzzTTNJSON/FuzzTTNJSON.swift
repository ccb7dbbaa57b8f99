import FuzzDriver
@testable import MTTMQTT

/// A TTN MQTT message: the uplink decoder (the one-pass reader, and JSONDecoder for whatever the
/// reader leaves) and the reader's skipping must take any bytes without crashing. That both paths
/// read a message alike is checked on every fixture by JSONReaderTests.
@main
enum Fuzzer {
    static func main() { runFuzzer(fuzzOne) }
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    _ = try? UplinkDecoder.decode(bytes)
    _ = try? JSONReader.read(bytes) { r throws(JSONReader.Mismatch) in try r.skip() }
    return 0
}
