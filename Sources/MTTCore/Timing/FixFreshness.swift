/// When a fix stops being trustworthy for positioning a transmission.
public struct FixFreshness: Sendable, Hashable {
    /// Seconds after which a fix is stale (DESIGN.md: 15 s).
    public var maximumAge: Double

    public init(maximumAge: Double = 15) {
        self.maximumAge = maximumAge
    }

    public func age(of fix: Fix, at now: Timestamp) -> Double {
        now.seconds(since: fix.time)
    }

    public func isStale(_ fix: Fix, at now: Timestamp) -> Bool {
        age(of: fix, at: now) > maximumAge
    }
}
