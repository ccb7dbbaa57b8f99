import Foundation
import FuzzDriver
import MTTCore
@testable import MTTHTTP

/// What a server answers, read by mtt's HTTP client: up to four answers in turn on one kept-alive
/// connection, arriving in pieces whose size the input's first byte sets (as TCP may cut them).
@main
enum Fuzzer {
    static func main() { runFuzzer(fuzzOne) }
}

/// A server's bytes from memory: each read hands over the next piece; then the end of the stream.
final class ScriptedStream: ByteStream {
    private var pending: ArraySlice<UInt8>
    private let piece: Int

    init(_ bytes: ArraySlice<UInt8>, piece: Int) {
        pending = bytes
        self.piece = piece
    }

    var endpoint: String { "fuzz:0" }
    var isStale: Bool { pending.isEmpty }

    func write(_ bytes: Data, deadline: Date, timeout: Double) throws(SyncTransportError) {}

    func read(into buffer: inout [UInt8], deadline: Date, timeout: Double) throws(SyncTransportError) -> Int {
        let n = min(piece, buffer.count, pending.count)
        for i in 0..<n { buffer[i] = pending[pending.startIndex + i] }
        pending = pending.dropFirst(n)
        return n
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    guard let first = bytes.first else { return 0 }
    let answer = bytes.dropFirst()
    let connection = HTTPConnection(over: ScriptedStream(answer, piece: Int(first) + 1))
    var bodyBytes = 0
    for _ in 0..<4 {
        guard let response = try? connection.exchange(Data(), deadline: .distantFuture, timeout: 1) else { break }
        // Nothing is made up: the bodies together are never more than the server sent.
        bodyBytes += response.body.count
        precondition(bodyBytes <= answer.count && response.body.count <= HTTPConnection.largestAnswer)
        if !response.keepAlive { break }
    }
    return 0
}
