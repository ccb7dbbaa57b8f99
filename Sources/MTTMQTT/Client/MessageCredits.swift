import Dispatch
import Synchronization

/// How many received messages may wait unprocessed. libmosquitto's thread takes a credit before it
/// hands a message over and waits when there is none, so a burst stays in the broker and the socket
/// buffers instead of in mtt's memory; the reader gives the credit back once a message is dealt with.
public final class MessageCredits: Sendable {
    private let semaphore: DispatchSemaphore
    private let closed = Atomic<Bool>(false)

    public init(limit: Int) {
        semaphore = DispatchSemaphore(value: limit)
    }

    /// Waits for a credit (on libmosquitto's thread); returns at once after `close()`.
    func take() {
        while !closed.load(ordering: .acquiring) {
            if semaphore.wait(timeout: .now() + .milliseconds(200)) == .success { return }
        }
    }

    /// Takes a credit if one is free, without waiting.
    func tryTake() -> Bool {
        semaphore.wait(timeout: .now()) == .success
    }

    public func give(_ count: Int = 1) {
        for _ in 0..<count { semaphore.signal() }
    }

    /// The reader is gone: nothing waits for credits any more.
    func close() {
        closed.store(true, ordering: .releasing)
    }
}
