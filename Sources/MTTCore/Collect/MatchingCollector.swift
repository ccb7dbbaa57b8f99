/// Matching mode: the node transmits on its own; mtt records the track every `interval` seconds
/// (every fix while moving fast) and places each heard uplink on it by interpolation. An uplink
/// outside the track, or in a gap longer than 30 s, is stored without a position, with the reason.
public struct MatchingCollector: Sendable {
    private let engine: TrackCollector

    public init(
        store: Store, session: Int64, fixes: any FixSource, uplinks: (any UplinkSource)?, interval: Double = 5,
        clock: any TimeSource = SystemClock(), heartbeat: @escaping @Sendable () -> Void = {}, emit: @escaping @Sendable (CollectEvent) -> Void
    ) {
        engine = TrackCollector(
            store: store, session: session, fixes: fixes, uplinks: uplinks,
            settings: .init(interval: interval, placement: TrackPlacement()), clock: clock, heartbeat: heartbeat, emit: emit)
    }

    public func run() async throws { try await engine.run() }
    public func flush() async throws { try await engine.flush() }
}
