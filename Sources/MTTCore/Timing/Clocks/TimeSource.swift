import FoundationEssentials

/// The time mtt stamps its records with and every wait it makes: the port that lets a test drive
/// time by hand (TestSupport's `ManualClock`) and a simulated run go faster (`ScaledClock`), while
/// a real run reads the system's (`SystemClock`). A wait that goes around it cannot be sped up or
/// stepped, so Core and the adapters that schedule (send policy, backoffs, joins, timeouts, hook
/// cooldowns, uploads, the live map's grace, fetch waits) wait through one of these.
public protocol TimeSource: Sendable {
    /// This clock's time now.
    func now() -> Timestamp
    /// Returns once this clock has reached `deadline` (at once when it has already); throws
    /// `CancellationError` when the waiting task is cancelled first.
    func sleep(until deadline: Timestamp) async throws
    /// Returns after `seconds` of this clock.
    func sleep(seconds: Double) async throws
}

extension TimeSource {
    public func sleep(seconds: Double) async throws {
        try await sleep(until: now().adding(seconds: seconds))
    }

    /// Seconds of this clock since `start`.
    public func seconds(since start: Timestamp) -> Double {
        now().seconds(since: start)
    }

    /// Runs `operation`, and gives up on it after `seconds` of this clock: nil then, and the
    /// operation is cancelled (it must end on cancellation for this to return).
    public func withTimeout<T: Sendable>(seconds: Double, _ operation: @escaping @Sendable () async throws -> T) async throws -> T? {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await sleep(seconds: seconds)
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
    }
}
