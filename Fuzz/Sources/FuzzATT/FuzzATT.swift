import MTTBluetooth

/// An ATT PDU from the node (or anything pretending to be one).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let pdu = try? ATTPDU(bytes: bytes) {
        _ = pdu.bytes
    }
    return 0
}
