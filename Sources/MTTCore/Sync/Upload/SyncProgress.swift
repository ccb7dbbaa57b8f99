/// Where an upload run stands, reported after each record.
public struct SyncProgress: Sendable, Hashable {
    public var target: SyncTarget
    /// Records waiting when the run began.
    public var total: Int
    public var sent = 0
    public var rejected = 0
    public var held = 0
    /// Records whose tries ran out in this run; they stay queued.
    public var failed = 0
    /// Seconds since the run began.
    public var elapsed = 0.0

    public var done: Int { sent + rejected + held + failed }

    /// Records settled per second.
    public var rate: Double { elapsed > 0 ? Double(done) / elapsed : 0 }

    /// Seconds still to go at the current rate, when there is one.
    public var remainingSeconds: Double? {
        rate > 0 ? Double(max(0, total - done)) / rate : nil
    }
}
