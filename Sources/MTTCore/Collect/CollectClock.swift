import FoundationEssentials

/// The time a collection stamps its records with: the wall clock, or a simulated one that runs
/// `scale` times as fast.
public struct CollectClock: Sendable {
    private let realStart: Timestamp
    private let simulatedStart: Timestamp
    public let scale: Double

    public init(scale: Double = 1, start: Timestamp = .now()) {
        realStart = .now()
        simulatedStart = start
        self.scale = scale
    }

    /// A sped-up clock dated so that a run of `realSeconds` ends just before the wall clock: it
    /// starts `realSeconds × (scale − 1)` in the past, and one real second's worth more for the
    /// stop itself (its last records are stamped as it winds down). Started now, a run of two
    /// minutes at 10× stamped its last records 18 minutes ahead of the wall clock. A slower clock
    /// starts now and stays behind.
    public static func simulated(scale: Double, endingAfter realSeconds: Double) -> CollectClock {
        let lead = scale > 1 ? realSeconds * (scale - 1) + scale : 0
        return CollectClock(scale: scale, start: Timestamp.now().adding(seconds: -lead))
    }

    public static let wall = CollectClock()

    public func now() -> Timestamp {
        simulatedStart.adding(seconds: Timestamp.now().seconds(since: realStart) * scale)
    }

    /// Whether this clock has reached the wall clock: a sped-up run ends there rather than stamp
    /// records in the future.
    public var hasReachedWallTime: Bool {
        scale > 1 && now() >= Timestamp.now()
    }

    /// Real seconds for `seconds` of this clock.
    public func realSeconds(_ seconds: Double) -> Double { seconds / scale }
}
