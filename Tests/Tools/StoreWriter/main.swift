// Writes one fix per loop into the database named on the command line and prints its index
// on stdout only after the write returned, so a test can SIGKILL it at any point and then
// check that every printed index is in the database. With a count it stops after that many writes
// (two of them started at once race to create the same new database).
import Foundation
import MTTCore

guard (2...3).contains(CommandLine.arguments.count) else {
    FileHandle.standardError.write(Data("usage: mtt-store-writer DB [COUNT]\n".utf8))
    exit(64)
}
let limit = CommandLine.arguments.count == 3 ? Int(CommandLine.arguments[2]) ?? 0 : Int.max
do {
    let store = try Store(path: CommandLine.arguments[1])
    let session = try store.startSession(mode: .matching, note: "crash test")
    var index = 0
    while index < limit {
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
