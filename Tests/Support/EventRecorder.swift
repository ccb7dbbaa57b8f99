import Foundation

/// Collects what an async stream delivers, so a test can wait for a condition with a deadline.
public actor EventRecorder<Event: Sendable> {
    public private(set) var events: [Event] = []
    /// True once the stream has ended on its own.
    public private(set) var finished = false
    private var task: Task<Void, Never>?

    public init() {}

    /// Starts reading `stream` in the background until it ends or `stop()` is called.
    public func record(_ stream: AsyncStream<Event>) {
        task = Task { [weak self] in
            for await event in stream {
                await self?.append(event)
            }
            if !Task.isCancelled { await self?.markFinished() }
        }
    }

    private func markFinished() {
        finished = true
    }

    private func append(_ event: Event) {
        events.append(event)
    }

    public func stop() {
        task?.cancel()
    }

    /// Waits until `condition` holds for the events so far, or `timeout` seconds pass; true if it held.
    public func wait(timeout: Double, until condition: @Sendable ([Event]) -> Bool) async -> Bool {
        await eventually(timeout: timeout) { condition(events) }
    }

    /// Waits until the stream ends (or `timeout` passes); true if it ended. Better than waiting
    /// for quiet where the stream does end: a starved producer is not mistaken for a finished one.
    public func waitUntilFinished(timeout: Double) async -> Bool {
        await eventually(timeout: timeout) { finished }
    }

    /// Waits until no new event arrived for `quiet` seconds (or `timeout` passes).
    public func waitUntilQuiet(quiet: Double, timeout: Double) async {
        var lastCount = -1
        var lastChange = Date()
        await eventually(timeout: timeout) {
            if events.count != lastCount {
                lastCount = events.count
                lastChange = Date()
                return false
            }
            return Date().timeIntervalSince(lastChange) >= quiet
        }
    }
}
