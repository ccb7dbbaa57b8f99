import Dispatch
import Synchronization

/// How many received messages may wait unprocessed. libmosquitto's thread takes a credit before it
/// hands a message over and waits when there is none, so a burst stays in the broker and the socket
/// buffers instead of in mtt's memory; the reader gives the credit back once a message is dealt with.
///
/// A thread that ran out waits until half the credits are back, not just one: woken for every
/// credit, it would read one message and sleep again, and in a burst those wake-ups cost more than
/// the reading.
public final class MessageCredits: Sendable {
    private struct State {
        var free: Int
        var waiting = false
        var closed = false
    }

    private let state: Mutex<State>
    private let wake = DispatchSemaphore(value: 0)
    /// Free credits that wake a waiting thread.
    let resumeAt: Int

    public init(limit: Int) {
        state = Mutex(State(free: limit))
        resumeAt = max(1, limit / 2)
    }

    /// Waits for a credit (on libmosquitto's thread) and takes it; returns at once after `close()`.
    func take() {
        // The timeout only guards against a lost wake-up: `give` and `close` signal.
        while !takeOrWait() { _ = wake.wait(timeout: .now() + .milliseconds(200)) }
    }

    /// Takes a credit, unless this thread is already waiting and fewer than `resumeAt` are free;
    /// false means "wait".
    func takeOrWait() -> Bool {
        state.withLock { state in
            if state.closed { return true }
            if state.free > 0 && (!state.waiting || state.free >= resumeAt) {
                state.free -= 1
                state.waiting = false
                return true
            }
            state.waiting = true
            return false
        }
    }

    /// Takes a credit if one is free, without waiting.
    func tryTake() -> Bool {
        state.withLock { state in
            guard state.free > 0 else { return false }
            state.free -= 1
            return true
        }
    }

    public func give(_ count: Int = 1) {
        let wakeWaiter = state.withLock { state -> Bool in
            state.free += count
            guard state.waiting, state.free >= resumeAt else { return false }
            state.waiting = false
            return true
        }
        if wakeWaiter { wake.signal() }
    }

    /// The reader is gone: nothing waits for credits any more.
    func close() {
        let wakeWaiter = state.withLock { state -> Bool in
            state.closed = true
            defer { state.waiting = false }
            return state.waiting
        }
        if wakeWaiter { wake.signal() }
    }
}
