import FuzzDriver
@testable import MTTMQTT

/// A TTN MQTT message: both decoding paths (the byte-level parser and JSONDecoder) must take any
/// bytes without crashing, and the fast path must agree with JSONDecoder whenever both read it.
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
