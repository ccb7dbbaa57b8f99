import FoundationEssentials
import FuzzDriver
@testable import MTTMQTT

/// A Storage Integration answer as it streams in (JSON lines or an event stream, cut into pieces
/// anywhere): the stream reader must take any bytes without crashing, and count every object it
/// was handed as readable or broken.
@main
enum Fuzzer {
    static func main() { runFuzzer(fuzzOne) }
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    guard let first = bytes.first else { return 0 }
    // The first byte chooses the framing and where the body is cut into pieces.
    let stream = StoredUplinkStream(eventStream: first & 1 == 1) { _ in true }
    let body = bytes.dropFirst()
    let piece = Int(first >> 1) + 1
    var start = body.startIndex
    while start < body.endIndex {
        let end = min(start + piece, body.endIndex)
        guard stream.consume(Data(body[start..<end])) else { break }
        start = end
    }
    stream.finish()
    if stream.readable + stream.broken > stream.objects + 1 {
        fatalError("\(stream.readable) readable and \(stream.broken) broken objects of \(stream.objects)")
    }
    return 0
}
