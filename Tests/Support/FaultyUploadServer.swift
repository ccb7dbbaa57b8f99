import Foundation
import Synchronization

/// What an upload test server accepted, by the records' msg_seq.
public final class AcceptedRecords: Sendable {
    private let seen = Mutex<[Int]>([])

    public init() {}

    public func add(_ request: LoopbackHTTPServer.Request) {
        if let seq = request.json?["msg_seq"] as? Int { seen.withLock { $0.append(seq) } }
    }

    public var all: [Int] { seen.withLock { $0 } }
}

extension LoopbackHTTPServer {
    /// A server that fails 30 % of requests (two 500s and one dropped connection in every ten)
    /// and leaves 5 % more unanswered for `stall` seconds; it accepts the rest and records them.
    /// The client's timeout must lie well between an answer's time and `stall`: an accepted answer
    /// that reaches the client after its timeout is sent again, as it would be in the field.
    public static func faulty(recording accepted: AcceptedRecords, stall: Double = 1.5) throws -> LoopbackHTTPServer {
        let counter = Mutex(0)
        return try LoopbackHTTPServer { request in
            let n = counter.withLock { n in n += 1; return n }
            switch n % 10 {
            case 1, 4: return .status(500, "storing failed")
            case 6: return .drop
            case 8 where n % 20 == 8: return .stall(seconds: stall)
            default:
                accepted.add(request)
                return .status(201, "{}")
            }
        }
    }
}
