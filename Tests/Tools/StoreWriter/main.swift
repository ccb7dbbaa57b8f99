// Writes one fix per loop into the database named on the command line and prints its index
// on stdout only after the write returned, so a test can SIGKILL it at any point and then
// check that every printed index is in the database.
import Foundation
import MTTCore

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: mtt-store-writer DB\n".utf8))
    exit(64)
}
do {
    let store = try Store(path: CommandLine.arguments[1])
    let session = try store.startSession(mode: .matching, note: "crash test")
    var index = 0
    while true {
        let fix = Fix(
            time: Timestamp(nanosecondsSinceEpoch: 1_700_000_000_000_000_000 + Int64(index) * 1_000_000_000),
            latitude: 40 + Double(index) * 1e-5, longitude: -74, eph: Double(index), mode: .threeD,
            source: "crash-test")
        try store.record(fix, session: session)
        // Unbuffered, so the test sees exactly the writes that returned.
        let line = Array("\(index)\n".utf8)
        _ = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
        index += 1
    }
} catch {
    FileHandle.standardError.write(Data("mtt-store-writer: \(error)\n".utf8))
    exit(1)
}
