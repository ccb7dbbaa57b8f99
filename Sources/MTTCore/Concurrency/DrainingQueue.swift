import Synchronization

/// A queue whose reader takes everything waiting at once. Put between a fast producer and a reader
/// that does one expensive thing per batch (a database commit), it lets batches grow exactly as
/// much as the reader falls behind: one item when idle, hundreds under load.
public final class DrainingQueue<Element: Sendable>: Sendable {
    private struct State {
        var buffer: [Element] = []
        var waiter: CheckedContinuation<[Element]?, Never>?
        var finished = false
    }

    private let state = Mutex(State())

    public init() {}

    /// Adds an item; never blocks, so it is safe on a C library's callback thread.
    public func append(_ element: Element) {
        let waiter = state.withLock { s -> CheckedContinuation<[Element]?, Never>? in
            guard !s.finished else { return nil }
            if let waiter = s.waiter {
                s.waiter = nil
                return waiter
            }
            s.buffer.append(element)
            return nil
        }
        waiter?.resume(returning: [element])
    }

    /// No more items: the reader gets what is left, then nil.
    public func finish() {
        let waiter = state.withLock { s -> CheckedContinuation<[Element]?, Never>? in
            s.finished = true
            defer { s.waiter = nil }
            return s.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// Everything waiting, or the next item when nothing is; nil once finished and empty or when the
    /// reading task is cancelled. One reader at a time.
    public func next() async -> [Element]? {
        if let ready = take() { return ready }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let immediate = state.withLock { s -> [Element]?? in
                    if !s.buffer.isEmpty {
                        defer { s.buffer.removeAll(keepingCapacity: true) }
                        return .some(s.buffer)
                    }
                    if s.finished || Task.isCancelled { return .some(nil) }
                    s.waiter = continuation
                    return .none
                }
                if case .some(let value) = immediate { continuation.resume(returning: value) }
            }
        } onCancel: {
            let waiter = state.withLock { s -> CheckedContinuation<[Element]?, Never>? in
                defer { s.waiter = nil }
                return s.waiter
            }
            waiter?.resume(returning: nil)
        }
    }

    private func take() -> [Element]? {
        state.withLock { s in
            guard !s.buffer.isEmpty else { return nil }
            defer { s.buffer.removeAll(keepingCapacity: true) }
            return s.buffer
        }
    }

    /// A queue fed from `stream` by a task of its own, finished when the stream ends. Cancel the task
    /// to stop reading the stream.
    public static func pumping(_ stream: AsyncStream<Element>) -> (queue: DrainingQueue<Element>, pump: Task<Void, Never>) {
        let queue = DrainingQueue<Element>()
        let pump = Task {
            for await element in stream { queue.append(element) }
            queue.finish()
        }
        return (queue, pump)
    }
}
