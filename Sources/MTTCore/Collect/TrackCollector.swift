/// The engine of matching and listener modes: records the track, stores every uplink of the chosen
/// devices as it arrives, and positions each one at its earliest gateway receive time once the
/// track covers that time (or can no longer cover it).
actor TrackCollector {
    struct Settings {
        /// Seconds between stored track points.
        var interval: Double
        /// Above this speed (m/s) every fix is stored.
        var fastSpeed: Double = 8
        var maximumGap: Double = 30
        /// Listener mode: when interpolation is impossible, use the latest fix if it is this fresh.
        var latestFixFallback: Double?
    }

    private let store: Store
    private let session: Int64
    private let fixes: any FixSource
    private let uplinks: any UplinkSource
    private let settings: Settings
    private let clock: CollectClock
    private let emit: @Sendable (CollectEvent) -> Void
    private var track: [Fix] = []
    private var lastStored: Fix?
    private var waiting: [(id: Int64, time: Timestamp)] = []

    init(
        store: Store, session: Int64, fixes: any FixSource, uplinks: any UplinkSource, settings: Settings,
        clock: CollectClock, emit: @escaping @Sendable (CollectEvent) -> Void
    ) {
        self.store = store
        self.session = session
        self.fixes = fixes
        self.uplinks = uplinks
        self.settings = settings
        self.clock = clock
        self.emit = emit
    }

    /// Runs until cancelled; then `flush()` positions what was still waiting.
    func run() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await self.followGPS() }
            group.addTask { try await self.listen() }
            group.addTask { try await self.expireWaiting() }
            try await group.next()
            group.cancelAll()
        }
    }

    /// Positions what is still waiting, for a clean stop: the track will not grow any more.
    func flush() throws {
        let pending = waiting
        waiting = []
        for uplink in pending { try position(uplink, final: true) }
    }

    private func followGPS() async throws {
        for await event in fixes.events() {
            emit(.gps(event))
            guard case .fix(let fix) = event else { continue }
            let due = lastStored.map { fix.time.seconds(since: $0.time) >= settings.interval } ?? true
            let fast = (fix.speed ?? 0) > settings.fastSpeed
            guard due || fast else { continue }
            try store.record(fix, session: session)
            track.append(fix)
            lastStored = fix
            emit(.trackPoint(fix))
            try positionCovered()
        }
        try await Task.sleep(for: .seconds(365 * 86_400))
    }

    private func listen() async throws {
        for await event in uplinks.events() {
            switch event {
            case .uplink(let uplink):
                let id = try store.record(uplink, session: session)
                emit(.heard(uplinkID: id, uplink: uplink, attemptID: nil))
                waiting.append((id, uplink.earliestReceiveTime))
                try positionCovered()
            case .connected(let detail):
                emit(.network(connected: true, detail: detail))
            case .lost(let reason):
                emit(.network(connected: false, detail: reason))
            case .failed(let reason):
                throw CollectError.network(reason)
            }
        }
    }

    /// Uplinks whose time the track will never reach (a gap longer than allowed) are positioned
    /// with what there is, so nothing waits forever.
    private func expireWaiting() async throws {
        while !Task.isCancelled {
            try await Task.sleep(for: .seconds(clock.realSeconds(1)))
            let now = clock.now()
            let expired = waiting.filter { now.seconds(since: $0.time) > settings.maximumGap }
            guard !expired.isEmpty else { continue }
            waiting.removeAll { w in expired.contains { $0.id == w.id } }
            for uplink in expired { try position(uplink, final: true) }
        }
    }

    private func positionCovered() throws {
        guard let end = track.last?.time else { return }
        let ready = waiting.filter { $0.time <= end }
        guard !ready.isEmpty else { return }
        waiting.removeAll { $0.time <= end }
        for uplink in ready { try position(uplink, final: false) }
    }

    private func position(_ uplink: (id: Int64, time: Timestamp), final: Bool) throws {
        var sample: Sample
        switch TrackInterpolator(maximumGap: settings.maximumGap).position(at: uplink.time, in: track) {
        case .position(let point):
            sample = Sample(sessionID: session, subject: .uplink(uplink.id), time: uplink.time, position: point, method: .interpolated)
        case .none(let reason):
            if let freshness = settings.latestFixFallback, let latest = track.last(where: { $0.time <= uplink.time }) ?? track.last,
               abs(uplink.time.seconds(since: latest.time)) <= freshness {
                sample = Sample(sessionID: session, subject: .uplink(uplink.id), time: uplink.time, position: latest.point, method: .latestFix)
            } else {
                sample = Sample(sessionID: session, subject: .uplink(uplink.id), time: uplink.time, position: nil, method: .none, reason: reason)
            }
        }
        sample.id = try store.record(sample)
        emit(.sample(sample))
    }
}

/// Matching mode: the node transmits on its own; mtt records the track every `interval` seconds
/// (every fix while moving fast) and places each heard uplink on it by interpolation. An uplink
/// outside the track, or in a gap longer than 30 s, is stored without a position, with the reason.
public struct MatchingCollector: Sendable {
    private let engine: TrackCollector

    public init(
        store: Store, session: Int64, fixes: any FixSource, uplinks: any UplinkSource, interval: Double = 5,
        clock: CollectClock = .wall, emit: @escaping @Sendable (CollectEvent) -> Void
    ) {
        engine = TrackCollector(
            store: store, session: session, fixes: fixes, uplinks: uplinks,
            settings: .init(interval: interval), clock: clock, emit: emit)
    }

    public func run() async throws { try await engine.run() }
    public func flush() async throws { try await engine.flush() }
}

/// Listener mode: each uplink of the chosen devices becomes a sample positioned at its receive
/// time, interpolated on the track; where that is impossible, the latest fix stands in only while
/// it is fresh (15 s), and the method says which.
public struct ListenerCollector: Sendable {
    private let engine: TrackCollector

    public init(
        store: Store, session: Int64, fixes: any FixSource, uplinks: any UplinkSource, interval: Double = 1,
        freshness: Double = 15, clock: CollectClock = .wall, emit: @escaping @Sendable (CollectEvent) -> Void
    ) {
        engine = TrackCollector(
            store: store, session: session, fixes: fixes, uplinks: uplinks,
            settings: .init(interval: interval, latestFixFallback: freshness), clock: clock, emit: emit)
    }

    public func run() async throws { try await engine.run() }
    public func flush() async throws { try await engine.flush() }
}
