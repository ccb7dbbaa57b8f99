/// The time a collection runs on: the wall clock, or a simulation's clock running `scale` times
/// faster (the demo and tests drive ten minutes in one). Fake GPS, fake network and the collectors
/// share one, so fix ages and send intervals stay consistent.
public struct CollectClock: Sendable {
    private let realStart: Timestamp
    private let simulatedStart: Timestamp
    public let scale: Double

    public init(scale: Double = 1, start: Timestamp = .now()) {
        realStart = .now()
        simulatedStart = start
        self.scale = scale
    }

    public static let wall = CollectClock()

    public func now() -> Timestamp {
        simulatedStart.adding(seconds: Timestamp.now().seconds(since: realStart) * scale)
    }

    /// Real seconds for `seconds` of this clock.
    public func realSeconds(_ seconds: Double) -> Double { seconds / scale }
}
