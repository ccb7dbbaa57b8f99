/// When active mode makes a node transmit (DESIGN.md): the fix is fresh and good, and mtt moved
/// far enough and long enough since the last send; or, with `every`, when enough time passed even
/// standing still.
public struct SendPolicy: Sendable, Hashable {
    /// A fix older than this (seconds) is not sent.
    public var maximumFixAge: Double = FixFreshness.defaultMaximumAge
    /// A fix whose error estimate is larger (metres) is not sent, when the GPS gives one. By
    /// default TTN Mapper's own limit for its main map: at 25 m a send on a 17 m fix went out and
    /// its sample was then held back by the gate at every sync.
    public var maximumEPH: Double = TTNMapperQualityGate().maximumAccuracy
    public var minimumDistance: Double = 10
    public var minimumInterval: Double = 12
    /// Send at least this often (seconds) even without moving; nil sends only on movement.
    public var every: Double?

    public init() {}

    public struct LastSend: Sendable, Hashable {
        public var time: Timestamp
        public var position: GeoPoint

        public init(time: Timestamp, position: GeoPoint) {
            self.time = time
            self.position = position
        }
    }

    /// Why the fix is too old to send on, or nil when it is fresh enough.
    public func staleness(of fix: Fix, now: Timestamp) -> String? {
        let age = now.seconds(since: fix.time)
        guard age > maximumFixAge || age < -maximumFixAge else { return nil }
        return "the fix is \(SpokenDuration.age(age)) old (the limit is \(Int(maximumFixAge)) s)"
            + (fix.source.hasPrefix("nmea:") ? ": the NMEA capture was recorded at another time" : "")
    }

    /// Why not to send now, or nil to send.
    public func reasonToWait(fix: Fix, now: Timestamp, last: LastSend?) -> String? {
        guard fix.hasPosition else { return "no fix" }
        if let stale = staleness(of: fix, now: now) { return stale }
        if let eph = fix.eph, eph > maximumEPH { return "the fix is uncertain (±\(eph.plainText) m, the limit is \(maximumEPH.plainText) m)" }
        guard let last else { return nil }
        let elapsed = fix.time.seconds(since: last.time)
        // The minimum interval protects the node's duty cycle: `every` never goes below it.
        if elapsed < minimumInterval { return "sent \(Int(elapsed)) s ago" }
        if let every, elapsed >= every { return nil }
        let moved = fix.point.distance(to: last.position)
        if moved <= minimumDistance { return "moved only \(Int(moved.rounded())) m" }
        return nil
    }
}
