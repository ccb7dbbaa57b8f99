@testable import MTTBluetooth

/// Advertising data and the kernel's discovery packets that carry it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = AdvertisingData(bytes: bytes)
    _ = ManagementPacket.event(bytes)
    _ = LEAdvertisingReport.devices(bytes)
    return 0
}
