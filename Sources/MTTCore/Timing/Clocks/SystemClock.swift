import FoundationEssentials

/// The system's wall clock, for real runs; it waits on the monotonic clock, so that a wall clock
/// set back or forward (NTP, a Pi that booted without one) neither stretches nor skips a wait.
public struct SystemClock: TimeSource {
    public init() {}

    public func now() -> Timestamp { .now() }

    public func sleep(until deadline: Timestamp) async throws {
        try await sleep(seconds: deadline.seconds(since: .now()))
    }

    public func sleep(seconds: Double) async throws {
        guard seconds > 0 else { return try Task.checkCancellation() }
        // Task.sleep takes at most Int64 nanoseconds; a longer wait is a park until cancelled.
        try await Task.sleep(for: .nanoseconds(Int64(min(seconds, 9e9) * 1e9)))
    }
}
