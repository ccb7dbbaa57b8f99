import FuzzDriver
import MTTBluetooth

/// An ATT PDU from the node (or anything pretending to be one).
@main
enum Fuzzer {
    static func main() { runFuzzer(fuzzOne) }
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    if let pdu = try? ATTPDU(bytes: bytes) {
        _ = pdu.bytes
    }
    return 0
}
