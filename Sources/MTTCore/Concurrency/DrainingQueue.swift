import Synchronization

/// A queue whose reader takes everything waiting at once. Put between a fast producer and a reader
/// that does one expensive thing per batch (a database commit), it lets batches grow exactly as
/// much as the reader falls behind: one item when idle, hundreds under load.
public final class DrainingQueue<Element: Sendable>: Sendable {
    private struct State {
        var buffer: [Element] = []
        var waiter: CheckedContinuation<[Element]?, Never>?
        var finished = false
        /// Writers of `send` waiting for the reader to make room.
        var senders: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())
    /// Items `send` lets wait before it waits itself; `append` ignores it.
    public let capacity: Int

    public init(capacity: Int = .max) {
        self.capacity = capacity
    }

    /// Adds an item, first waiting while `capacity` items are waiting: the writer slows to the
    /// reader's pace instead of filling memory.
    public func send(_ element: Element) async {
        await send(contentsOf: CollectionOfOne(element))
    }

    /// Adds several items at once, first waiting while they would not fit in `capacity`.
    public func send(contentsOf elements: some Collection<Element> & Sendable) async {
        guard !elements.isEmpty else { return }
        while true {
            let full = state.withLock { s in isFull(s, adding: elements.count) }
            if !full {
                append(contentsOf: elements)
                return
            }
            if Task.isCancelled { return }
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let wait = state.withLock { s -> Bool in
                        guard isFull(s, adding: elements.count), !Task.isCancelled else { return false }
                        s.senders.append(continuation)
                        return true
                    }
                    if !wait { continuation.resume() }
                }
            } onCancel: {
                // Wake every waiting writer; those not cancelled go back to waiting.
                let senders = state.withLock { s in
                    defer { s.senders = [] }
                    return s.senders
                }
                senders.forEach { $0.resume() }
            }
        }
    }

    /// Whether `count` more items must wait: they would pass `capacity` (a batch larger than that
    /// goes into an empty queue whole), and no reader is waiting to take them at once.
    private func isFull(_ s: State, adding count: Int) -> Bool {
        !s.buffer.isEmpty && s.buffer.count + count > capacity && s.waiter == nil && !s.finished
    }

    /// Adds an item; never blocks, so it is safe on a C library's callback thread.
    public func append(_ element: Element) {
        append(contentsOf: CollectionOfOne(element))
    }

    /// Adds several items at once; never blocks.
    public func append(contentsOf elements: some Collection<Element>) {
        guard !elements.isEmpty else { return }
        let waiter = state.withLock { s -> CheckedContinuation<[Element]?, Never>? in
            guard !s.finished else { return nil }
            if let waiter = s.waiter {
                s.waiter = nil
                return waiter
            }
            s.buffer.append(contentsOf: elements)
            return nil
        }
        waiter?.resume(returning: Array(elements))
    }

    /// No more items: the reader gets what is left, then nil.
    public func finish() {
        let (waiter, senders) = state.withLock { s in
            s.finished = true
            defer { s.waiter = nil; s.senders = [] }
            return (s.waiter, s.senders)
        }
        waiter?.resume(returning: nil)
        senders.forEach { $0.resume() }
    }

    /// Everything waiting, or the next item when nothing is; nil once finished and empty or when the
    /// reading task is cancelled. One reader at a time.
    public func next() async -> [Element]? {
        while true {
            if let ready = take() { return ready }
            // [] means "something arrived meanwhile": go round and take it.
            let got: [Element]? = await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<[Element]?, Never>) in
                    let immediate = state.withLock { s -> [Element]?? in
                        if !s.buffer.isEmpty { return .some([]) }
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
            guard let got else { return nil }
            if !got.isEmpty { return got }
        }
    }

    private func take() -> [Element]? {
        let (batch, senders) = state.withLock { s -> ([Element]?, [CheckedContinuation<Void, Never>]) in
            guard !s.buffer.isEmpty else { return (nil, []) }
            defer { s.buffer.removeAll(keepingCapacity: true); s.senders = [] }
            return (s.buffer, s.senders)
        }
        senders.forEach { $0.resume() }
        return batch
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

    /// A queue fed from a stream of batches, each added whole.
    public static func pumping(batches stream: AsyncStream<[Element]>) -> (queue: DrainingQueue<Element>, pump: Task<Void, Never>) {
        let queue = DrainingQueue<Element>()
        let pump = Task {
            for await batch in stream { queue.append(contentsOf: batch) }
            queue.finish()
        }
        return (queue, pump)
    }
}
