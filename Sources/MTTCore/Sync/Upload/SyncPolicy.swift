/// How hard an upload run pushes and how it backs off.
public struct SyncPolicy: Sendable, Hashable {
    /// Requests in flight at once.
    public var concurrency = 8
    /// Requests for one record before it is left queued for the next run.
    public var triesPerRecord = 6
    /// Failed requests in a row, across all workers, after which the server is taken to be down and
    /// the run ends with everything left queued.
    public var failuresInARowToGiveUp = 24
    /// Pause before a record's next try, growing with each failure.
    public var backoff = Backoff(initial: 0.5, maximum: 30, multiplier: 2, jitter: 0.25)
    /// Records read from the queue at a time.
    public var pageSize = 500
    /// Which sessions' records the run takes: by default none of a simulated or excluded session.
    public var scope = SyncScope.plain
    public init() {}
}
