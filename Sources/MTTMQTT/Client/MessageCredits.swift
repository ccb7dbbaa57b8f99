import Dispatch
import Synchronization

/// How many received messages may wait unprocessed. libmosquitto's thread takes a credit for each
/// message it hands over and reads no more while none is free, so a burst stays in the broker and
/// the socket buffers instead of in mtt's memory; the reader gives the credit back once a message is
/// dealt with.
///
/// The thread never waits inside libmosquitto's message callback: a message read is in hand, credit
/// or not (the count goes below zero by the messages of one read at most), and the thread waits
/// between reads, where it can still keep the connection alive (`MosquittoSession`).
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

    /// Takes a credit for a message just read.
    func take() {
        state.withLock { $0.free -= 1 }
    }

    /// Whether the network thread must read nothing more for now: it ran out, and fewer than
    /// `resumeAt` credits are back. False once closed.
    func mustWait() -> Bool {
        state.withLock { state in
            if state.closed { return false }
            if state.waiting {
                state.waiting = state.free < resumeAt
            } else {
                state.waiting = state.free <= 0
            }
            return state.waiting
        }
    }

    /// Waits for credits given back or `close()`, at most `timeout`; the caller asks `mustWait` again.
    func waitForCredits(timeout: DispatchTimeInterval) {
        _ = wake.wait(timeout: .now() + timeout)
    }

    public func give(_ count: Int = 1) {
        let wakeWaiter = state.withLock { state -> Bool in
            state.free += count
            return state.waiting && state.free >= resumeAt
        }
        if wakeWaiter { wake.signal() }
    }

    /// The reader is gone: nothing waits for credits any more.
    func close() {
        let wakeWaiter = state.withLock { state -> Bool in
            state.closed = true
            return state.waiting
        }
        if wakeWaiter { wake.signal() }
    }
}
