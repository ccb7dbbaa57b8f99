/// One session to complete from the stored uplinks: what to read, in which window.
public struct FetchTarget: Sendable {
    public var session: StoredSession
    /// The window read: the session's time with a margin either side, for the clocks of the Pi
    /// and the network server.
    public var after: Timestamp
    public var before: Timestamp
    /// TTS device IDs to read; nil reads every device of the application.
    public var devices: [String]?
    /// An active session keeps only the uplinks of its own nodes; nil keeps all.
    public var devEUIs: Set<String>?
    /// Said before reading: the network may no longer have all of it.
    public var warning: String?
}

/// Which sessions `mtt fetch` completes, and how.
public struct FetchPlanner: Sendable {
    /// How long the network keeps uplinks (24 h on TTN's community network).
    public var retention: Double = 86_400
    /// Seconds read before a session's start and after its end.
    public var margin: Double = 120

    public init(retention: Double = 86_400, margin: Double = 120) {
        self.retention = retention
        self.margin = margin
    }

    /// The sessions that started or ended at `since` or later (collection runs, not imports).
    /// `devices` replaces each session's own device list; `onlyUnfetched` leaves out sessions a
    /// fetch already completed after they ended.
    public func targets(in store: Store, since: Timestamp, devices: [String] = [], onlyUnfetched: Bool = false, now: Timestamp = .now()) throws -> [FetchTarget] {
        var targets: [FetchTarget] = []
        for session in try store.sessions.sessions(since: since) where session.mode != .imported {
            let end = session.endedAt ?? now
            if onlyUnfetched, let fetched = session.fetchedAt, let ended = session.endedAt, fetched >= ended.adding(seconds: margin) {
                continue
            }
            let listed = devices.isEmpty ? session.description.devices : devices
            var target = FetchTarget(
                session: session, after: session.startedAt.adding(seconds: -margin), before: end.adding(seconds: margin),
                devices: listed.isEmpty || listed.contains("+") ? nil : listed)
            if session.mode == .active {
                let euis = try store.records.attemptDevEUIs(session: session.id)
                // Nothing sent, nothing to find heard.
                guard !euis.isEmpty else { continue }
                target.devEUIs = euis
            }
            if now.seconds(since: session.startedAt) > retention {
                let hours = Int(now.seconds(since: session.startedAt) / 3600)
                target.warning = "session \(session.id) started \(hours) h ago: TTN's community network keeps uplinks \(Int(retention / 3600)) h, so those older are gone"
            }
            targets.append(target)
        }
        return targets
    }
}
