/// Listener mode: each uplink of the chosen devices becomes a sample positioned at its receive
/// time, interpolated on the track; where that is impossible, the latest fix stands in only while
/// it is fresh (15 s), and the method says which.
public struct ListenerCollector: Sendable {
    private let engine: TrackCollector

    public init(
        store: Store, session: Int64, fixes: any FixSource, uplinks: (any UplinkSource)?, interval: Double = 1,
        freshness: Double = FixFreshness.defaultMaximumAge, clock: any TimeSource = SystemClock(), heartbeat: @escaping @Sendable () -> Void = {}, emit: @escaping @Sendable (CollectEvent) -> Void
    ) {
        engine = TrackCollector(
            store: store, session: session, fixes: fixes, uplinks: uplinks,
            settings: .init(interval: interval, placement: TrackPlacement(latestFixFallback: freshness)), clock: clock, heartbeat: heartbeat, emit: emit)
    }

    public func run() async throws { try await engine.run() }
    public func flush() async throws { try await engine.flush() }
}
