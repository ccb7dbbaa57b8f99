import Synchronization

/// Set from a signal handler, read by a run loop.
final class StopSignal: Sendable {
    private let flag = Mutex(false)
    var fired: Bool { flag.withLock { $0 } }
    func fire() { flag.withLock { $0 = true } }
}
