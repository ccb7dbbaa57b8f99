import FuzzDriver
import MTTSerial

/// Bytes from a serial modem, in two arbitrary pieces: split into lines, each checked for text.
@main
enum Fuzzer {
    static func main() { runFuzzer(fuzzOne) }
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    var splitter = LineSplitter()
    let cut = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
    for piece in [bytes[..<cut], bytes[cut...]] {
        for line in splitter.feed(piece) {
            precondition(line.count <= LineSplitter.maximumLength && !line.isEmpty && !line.contains(0x0A))
            _ = LineSplitter.text(of: line)
        }
    }
    return 0
}
