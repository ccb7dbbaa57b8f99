/// When active mode makes a node transmit (DESIGN.md): the fix is fresh and good, and mtt moved
/// far enough and long enough since the last send; or, with `every`, when enough time passed even
/// standing still.
public struct SendPolicy: Sendable, Hashable {
    /// A fix older than this (seconds) is not sent.
    public var maximumFixAge: Double = 15
    /// A fix whose error estimate is larger (metres) is not sent, when the GPS gives one.
    public var maximumEPH: Double = 25
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

    /// Why not to send now, or nil to send.
    public func reasonToWait(fix: Fix, now: Timestamp, last: LastSend?) -> String? {
        guard fix.hasPosition else { return "no fix" }
        let age = now.seconds(since: fix.time)
        if age > maximumFixAge { return "the fix is \(Int(age)) s old" }
        if let eph = fix.eph, eph >= maximumEPH { return "the fix is uncertain (±\(Int(eph)) m)" }
        guard let last else { return nil }
        let elapsed = fix.time.seconds(since: last.time)
        if let every, elapsed >= every { return nil }
        if elapsed < minimumInterval { return "sent \(Int(elapsed)) s ago" }
        let moved = fix.point.distance(to: last.position)
        if moved <= minimumDistance { return "moved only \(Int(moved.rounded())) m" }
        return nil
    }
}
