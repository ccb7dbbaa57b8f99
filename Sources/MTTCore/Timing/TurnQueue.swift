/// First-come turns inside an actor, for protocols that allow one operation in flight
/// (one ATT request, one node send). Use as:
///
///     while turns.isTaken { await withCheckedContinuation { turns.wait($0) } }
///     turns.take()
///     defer { turns.release() }
public struct TurnQueue: Sendable {
    public private(set) var isTaken = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    public init() {}

    public mutating func wait(_ continuation: CheckedContinuation<Void, Never>) {
        waiting.append(continuation)
    }

    public mutating func take() {
        isTaken = true
    }

    /// Ends the current turn and wakes the next waiter, if any.
    public mutating func release() {
        isTaken = false
        if !waiting.isEmpty { waiting.removeFirst().resume() }
    }
}
