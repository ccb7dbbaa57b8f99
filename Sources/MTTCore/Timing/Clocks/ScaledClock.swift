import FoundationEssentials

/// A simulated run's clock (`--speed`): it runs `scale` times as fast as the wall clock from its
/// start, and so do its waits: a second of a run at 10× is a tenth of a real one.
public struct ScaledClock: TimeSource {
    private let realStart: Timestamp
    private let simulatedStart: Timestamp
    public let scale: Double

    public init(scale: Double, start: Timestamp = .now()) {
        realStart = .now()
        simulatedStart = start
        self.scale = scale
    }

    /// A sped-up clock dated so that a run of `realSeconds` ends just before the wall clock: it
    /// starts `realSeconds × (scale − 1)` in the past, and one real second's worth more for the
    /// stop itself (its last records are stamped as it winds down). Started now, a run of two
    /// minutes at 10× stamped its last records 18 minutes ahead of the wall clock. A slower clock
    /// starts now and stays behind.
    public static func simulated(scale: Double, endingAfter realSeconds: Double) -> ScaledClock {
        let lead = scale > 1 ? realSeconds * (scale - 1) + scale : 0
        return ScaledClock(scale: scale, start: Timestamp.now().adding(seconds: -lead))
    }

    public func now() -> Timestamp {
        simulatedStart.adding(seconds: Timestamp.now().seconds(since: realStart) * scale)
    }

    public func sleep(until deadline: Timestamp) async throws {
        try await sleep(seconds: deadline.seconds(since: now()))
    }

    public func sleep(seconds: Double) async throws {
        try await SystemClock().sleep(seconds: seconds / scale)
    }

    /// Whether this clock has reached the wall clock: a sped-up run ends there rather than stamp
    /// records in the future.
    public var hasReachedWallTime: Bool {
        scale > 1 && now() >= Timestamp.now()
    }
}
