/// Listener mode: each uplink of the chosen devices becomes a sample positioned at its receive
/// time, interpolated on the track; where that is impossible, the latest fix stands in only while
/// it is fresh (15 s), and the method says which. With `payload`, an uplink that carries its
/// device's own position is placed there instead.
public struct ListenerCollector: Sendable {
    private let engine: TrackCollector

    public init(
        store: Store, session: Int64, fixes: any FixSource, uplinks: (any UplinkSource)?, interval: Double = 1,
        freshness: Double = FixFreshness.defaultMaximumAge, payload: PayloadPlacement? = nil,
        fieldTesters: (desk: FieldTesterDesk, downlinks: any DownlinkSender)? = nil, clock: any TimeSource = SystemClock(),
        heartbeat: @escaping @Sendable () -> Void = {}, emit: @escaping @Sendable (CollectEvent) -> Void
    ) {
        engine = TrackCollector(
            store: store, session: session, fixes: fixes, uplinks: uplinks,
            settings: .init(interval: interval, placement: TrackPlacement(latestFixFallback: freshness), payload: payload, fieldTesters: fieldTesters),
            clock: clock, heartbeat: heartbeat, emit: emit)
    }

    public func run() async throws { try await engine.run() }
    public func flush() async throws { try await engine.flush() }
}
