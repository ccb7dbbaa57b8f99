/// Exponential backoff with jitter for reconnecting and retrying, so a dead service is never
/// hammered and a fleet of clients does not retry in step.
public struct Backoff: Sendable, Hashable {
    public var initial: Double
    public var maximum: Double
    public var multiplier: Double
    /// Fraction of each delay that is randomised (0 = none, 0.2 = ±20 %).
    public var jitter: Double
    private var attempt = 0

    public init(initial: Double = 0.5, maximum: Double = 30, multiplier: Double = 2, jitter: Double = 0.2) {
        self.initial = initial
        self.maximum = maximum
        self.multiplier = multiplier
        self.jitter = jitter
    }

    /// The delay before the next try, in seconds; each call grows it until `maximum`.
    public mutating func nextDelay() -> Double {
        var generator = SystemRandomNumberGenerator()
        return nextDelay(using: &generator)
    }

    public mutating func nextDelay(using generator: inout some RandomNumberGenerator) -> Double {
        var exponent = 1.0
        for _ in 0..<attempt { exponent *= multiplier }
        let base = min(maximum, initial * exponent)
        attempt += 1
        guard jitter > 0 else { return base }
        return base * (1 + Double.random(in: -jitter...jitter, using: &generator))
    }

    /// Back to the initial delay after a success.
    public mutating func reset() {
        attempt = 0
    }
}
