/// Where an uplink of a matching or listener session was heard: interpolated on the session's
/// track at its earliest receive time; in listener mode, where that is impossible, the latest fix
/// stands in while it is fresh. The one rule for an uplink that came live by MQTT, that a stopped
/// run left waiting, and that `mtt fetch` brought later.
public struct TrackPlacement: Sendable {
    public var maximumGap: Double
    /// Listener mode: seconds a fix may be from the uplink's time to stand in for the position.
    public var latestFixFallback: Double?

    public init(maximumGap: Double = 30, latestFixFallback: Double? = nil) {
        self.maximumGap = maximumGap
        self.latestFixFallback = latestFixFallback
    }

    /// The placement of a mode's sessions; nil for modes whose uplinks are placed otherwise
    /// (active: where the node was when it sent; an import: as the file says).
    public static func of(_ mode: CollectionMode, latestFixFreshness: Double = FixFreshness.defaultMaximumAge) -> TrackPlacement? {
        switch mode {
        case .matching: TrackPlacement()
        case .listener: TrackPlacement(latestFixFallback: latestFixFreshness)
        case .active, .imported: nil
        }
    }

    /// The sample of uplink `id`, heard at `time`, on `track` (fixes in time order).
    public func sample(uplink id: Int64, session: Int64, at time: Timestamp, on track: [Fix]) -> Sample {
        switch TrackInterpolator(maximumGap: maximumGap).position(at: time, in: track) {
        case .position(let point):
            return Sample(sessionID: session, subject: .uplink(id), time: time, position: point, method: .interpolated)
        case .none(let reason):
            if let freshness = latestFixFallback, let latest = track.last(where: { $0.time <= time }) ?? track.last,
               abs(time.seconds(since: latest.time)) <= freshness {
                return Sample(sessionID: session, subject: .uplink(id), time: time, position: latest.point, method: .latestFix)
            }
            return Sample(sessionID: session, subject: .uplink(id), time: time, position: nil, method: .none, reason: reason)
        }
    }
}
