import FuzzDriver
@testable import MTTBluetooth

/// Advertising data and the kernel's discovery packets that carry it.
@main
enum Fuzzer {
    static func main() { runFuzzer(fuzzOne) }
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    _ = AdvertisingData(bytes: bytes)
    _ = ManagementPacket.event(bytes)
    _ = LEAdvertisingReport.devices(bytes)
    return 0
}
