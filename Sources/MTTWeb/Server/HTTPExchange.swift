import Foundation
import MTTCore

/// A request as the map reads it: a GET with its path, query and headers (no body, ever).
struct MapRequest: Sendable {
    var method: String
    var path: String
    var query: [(name: String, value: String)]
    /// Names in lower case.
    var headers: [String: String]

    func query(_ name: String) -> String? { query.first { $0.name == name }?.value }
}

/// An answer: whole, written as it is produced, or a stream of events for as long as the client stays.
enum MapResponse {
    case whole(status: Int, type: String, body: [UInt8], headers: [String: String] = [:])
    /// Written by `write` into a sink whose pieces go to the client as they fill (chunked).
    case written(type: String, write: @Sendable (TextSink) throws -> Void)
    /// Server-Sent Events from `queue` until the client goes.
    case events(EventQueue)

    static func text(_ status: Int, _ text: String) -> MapResponse {
        .whole(status: status, type: "text/plain; charset=utf-8", body: Array(text.utf8))
    }
}

/// What one Server-Sent Events client has not been sent yet: a small queue that drops its oldest
/// when the client falls behind, so a slow phone never holds up the map or the collection.
final class EventQueue: @unchecked Sendable {
    private let lock = NSCondition()
    private var pending: [[UInt8]] = []
    private var closed = false
    private let limit: Int

    init(limit: Int = 256) {
        self.limit = limit
    }

    func put(_ event: [UInt8]) {
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { return }
        if pending.count >= limit { pending.removeFirst() }
        pending.append(event)
        lock.signal()
    }

    /// The next event; nil when closed, or after `seconds` without one (the caller sends a
    /// keep-alive comment then, which also finds out whether the client is still there).
    func next(within seconds: Double) -> [UInt8]?? {
        lock.lock()
        defer { lock.unlock() }
        let deadline = Date().addingTimeInterval(seconds)
        while pending.isEmpty && !closed {
            if !lock.wait(until: deadline) { return .some(nil) }
        }
        if pending.isEmpty { return nil }
        return .some(pending.removeFirst())
    }

    var isClosed: Bool {
        lock.lock()
        defer { lock.unlock() }
        return closed
    }

    func close() {
        lock.lock()
        closed = true
        lock.broadcast()
        lock.unlock()
    }
}
