/// When a fix stops being trustworthy for positioning a transmission.
public struct FixFreshness: Sendable, Hashable {
    /// DESIGN.md's 15 s: every default of how old a fix may be (sending, placing, `mtt gps`) is this.
    public static let defaultMaximumAge: Double = 15

    /// Seconds after which a fix is stale.
    public var maximumAge: Double

    public init(maximumAge: Double = Self.defaultMaximumAge) {
        self.maximumAge = maximumAge
    }

    public func age(of fix: Fix, at now: Timestamp) -> Double {
        now.seconds(since: fix.time)
    }

    public func isStale(_ fix: Fix, at now: Timestamp) -> Bool {
        age(of: fix, at: now) > maximumAge
    }
}
