import FoundationEssentials
import Glibc
import Synchronization

/// One collection run, whatever drives or watches it (the command line, a service, a web page):
/// it takes the ports (a fix source, the nodes, an uplink source), the mode and the policy; at
/// start it resolves what a crashed run left (pending attempts, unplaced uplinks) and opens a
/// session; while it runs, the collector of its mode supervises the nodes and sources; it counts
/// `stats`, hands every event to the observer and to each `events()` follower; `stop()` ends it
/// cleanly (waiting uplinks placed, the session closed, the nodes closed).
public final class CollectionRun: Sendable {
    /// The sources and nodes, built by whoever knows the hardware (the CLI, from specs).
    public struct Ports: Sendable {
        public var fixes: any FixSource
        public var nodes: [ActiveNode]
        public var uplinks: (any UplinkSource)?
        /// Where replies to the devices that ask go (field testers), when the run answers any.
        public var downlinks: (any DownlinkSender)?

        public init(fixes: any FixSource, nodes: [ActiveNode] = [], uplinks: (any UplinkSource)? = nil, downlinks: (any DownlinkSender)? = nil) {
            self.fixes = fixes
            self.nodes = nodes
            self.uplinks = uplinks
            self.downlinks = downlinks
        }
    }

    public struct Settings: Sendable {
        public var mode: CollectionMode
        public var policy: SendPolicy
        /// Matching and listener modes: seconds between track points.
        public var interval: Double
        public var clock: any TimeSource
        /// The nodes' real time (reconnects, joins), whatever `clock`'s speed: the system's but in tests.
        public var realClock: any TimeSource = SystemClock()
        /// How the session names its nodes, GPS and network in the database, and where its
        /// uplinks can be fetched later.
        public var description: SessionDescription
        /// When coverage is lost, a battery low, and where the map is, for the field events.
        public var alerts: AlertRules
        /// Listener mode: positions from the uplinks' own payloads (`--gps payload[+GPS]`).
        public var payload: PayloadPlacement?
        /// Listener mode: the field testers to answer (`--field-tester`), through `Ports.downlinks`.
        public var fieldTesters: FieldTesterDesk.Settings?
        /// Active mode: a LoRaWAN link check with every send (`--linkcheck`), so that each attempt
        /// says how many gateways heard it even with no network source.
        public var checkLinks = false

        public init(
            mode: CollectionMode, policy: SendPolicy = SendPolicy(), interval: Double, clock: any TimeSource = SystemClock(),
            description: SessionDescription = SessionDescription(), alerts: AlertRules = AlertRules()
        ) {
            self.mode = mode
            self.policy = policy
            self.interval = interval
            self.clock = clock
            self.description = description
            self.alerts = alerts
        }
    }

    public let store: Store
    public let session: Int64
    /// Attempts a crashed or killed run left pending, marked failed at this start.
    public let resolvedAtStart: Int
    /// Uplinks a stopped run left without a sample, placed on their track at this start.
    public let placedAtStart: Int
    private let ports: Ports
    private let settings: Settings
    private let observer: @Sendable (CollectEvent) -> Void
    private let reporter: @Sendable (FieldEvent) -> Void
    private let hooks: HookDispatcher?
    /// Nil once the run has stopped and its event log is closed: an event the collector makes
    /// after that (it can outlive the stop's grace on a loaded machine) is neither reported nor
    /// stored, so what a run reported is what it stored.
    private let deriver: Mutex<FieldEventDeriver?>
    /// Field events on their way to the database, written in batches off the collector's thread.
    private let eventLog = DrainingQueue<FieldEvent>()
    /// The event log's writer and the ticker that lets time decide (lost attempts, silence).
    private let helpers = Mutex<(writer: Task<Void, Never>, ticker: Task<Void, Never>)?>(nil)
    private let counted = Mutex(CollectionStats())
    private let followers = Mutex<[Int: AsyncStream<CollectEvent>.Continuation]>([:])
    private let work = Mutex<Task<Void, any Error>?>(nil)
    private let ended = Mutex(false)
    /// When the collector's loops last went round.
    private let lastBeat = Mutex(ContinuousClock.now)

    /// Opens the session. `observe` sees every event first, on the collector's own thread: it must
    /// be quick (the command line only queues its lines there); `report` sees each field event
    /// (docs/events.md) of the `reporting` types as quickly, and `hooks` are offered them.
    public init(
        store: Store, ports: Ports, settings: Settings, hooks: HookDispatcher? = nil,
        observe: @escaping @Sendable (CollectEvent) -> Void = { _ in }, report: @escaping @Sendable (FieldEvent) -> Void = { _ in },
        reporting: Set<FieldEventType> = Set(FieldEventType.allCases)
    ) throws {
        self.store = store
        self.ports = ports
        self.settings = settings
        self.hooks = hooks
        observer = observe
        reporter = report
        resolvedAtStart = try store.records.failPendingAttempts(reason: "mtt stopped before the node reported a result")
        placedAtStart = try store.records.placeUnplacedUplinks().total
        session = try store.sessions.startSession(mode: settings.mode, at: settings.clock.now(), settings.description, version: MTTVersion.current)
        deriver = Mutex(FieldEventDeriver(
            session: session, mode: settings.mode, rules: settings.alerts, hearsTheNetwork: ports.uplinks != nil,
            knownGateways: try store.coverage.knownGatewayIDs(), start: settings.clock.now(),
            wanted: reporting.union(hooks?.wantedTypes ?? []).union(FieldEventType.allCases.filter(\.isStored))))
        for node in ports.nodes {
            try store.records.recordNodeConnected(node.link.name, session: session, at: settings.clock.now(), cameBack: false)
        }
    }

    /// The numbers and states so far.
    public var stats: CollectionStats { counted.withLock { $0 } }

    /// The run's events from now on, for as long as the follower iterates. A follower that falls
    /// far behind loses the oldest of them, never the run's pace.
    public func events() -> AsyncStream<CollectEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: CollectEvent.self, bufferingPolicy: .bufferingNewest(4_096))
        let key = followers.withLock { list in
            let key = (list.keys.max() ?? 0) + 1
            list[key] = continuation
            return key
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.followers.withLock { $0.removeValue(forKey: key) }
        }
        return stream
    }

    /// Whether the collector's own loops went round within the last `seconds`: what a service's
    /// watchdog asks before it says the run is alive (a hung run then gets restarted).
    public func isResponsive(within seconds: Double) -> Bool {
        ContinuousClock.now - lastBeat.withLock { $0 } <= .seconds(seconds)
    }

    /// A stop was asked for (the collecting task is cancelled first).
    private var isStopping: Bool { work.withLock { $0?.isCancelled ?? true } }

    /// Whether the collecting ended by itself (a failure only a stop can follow, or a mode with
    /// nothing to collect).
    public var hasEnded: Bool { ended.withLock { $0 } }

    /// Starts collecting in a task of its own.
    public func start() {
        let task = Task { [self] in
            defer { ended.withLock { $0 = true } }
            try await collect()
        }
        work.withLock { $0 = task }
        let store = self.store, eventLog = self.eventLog
        let writer = Task { [weak self] in
            while let batch = await eventLog.next() {
                // The events are a log of the records, which are stored already: a database that
                // cannot take them is said by the records' own writes. One another program holds
                // locked gets them once it lets go, unless the run stops first.
                while case .failure(StoreError.busy) = Result(catching: { try store.records.recordEvents(batch) }),
                      !(self?.isStopping ?? true) {
                    try? await SystemClock().sleep(seconds: 0.5)
                }
                // One commit (one fsync) in half a second at most, whatever the rate of events: in
                // a burst the records' own commits go first. Real time, as the disk's is, whatever
                // the run's clock.
                try? await SystemClock().sleep(seconds: 0.5)
            }
        }
        let ticker = Task { [self] in
            while !Task.isCancelled {
                try? await settings.clock.sleep(seconds: 1)
                derive { deriver, now in deriver.tick(at: now) }
            }
        }
        helpers.withLock { $0 = (writer, ticker) }
    }

    /// Stops collecting and closes the session; returns the failure that ended the run, if one did.
    /// An attempt in flight is waited for `grace` seconds at most: past that it stays pending and
    /// the next start marks it failed.
    public func stop(grace: Double = 2) async -> (any Error)? {
        guard let task = work.withLock({ $0 }) else { return nil }
        task.cancel()
        let finished = (try? await SystemClock().withTimeout(seconds: grace) { _ = await task.result }) != nil
        var failure: (any Error)?
        if finished, case .failure(let error) = await task.result, !(error is CancellationError) { failure = error }
        for node in ports.nodes { await node.link.close() }
        try? store.sessions.endSession(session, at: settings.clock.now())
        // Finished outside the lock: finishing runs onTermination, which takes it again.
        let following = followers.withLock { list in
            defer { list.removeAll() }
            return Array(list.values)
        }
        for continuation in following { continuation.finish() }
        // The ticker ends now; the writer once it has written what is queued. The ticker's last
        // tick (its sleep ends at the cancel) can still call attempts lost: those go into the log
        // before it ends, or they would be reported and never stored.
        let helpers = self.helpers.withLock { $0 }
        helpers?.ticker.cancel()
        await helpers?.ticker.value
        deriver.withLock { $0 = nil }
        eventLog.finish()
        await helpers?.writer.value
        return failure
    }

    /// Field events from the deriver, handed on in the order of their times: the time is taken,
    /// the events made and handed on under one lock (the collector and the ticker both call this).
    private func derive(_ make: (inout FieldEventDeriver, Timestamp) -> [FieldEvent]) {
        deriver.withLock { deriver in
            guard deriver != nil else { return }
            let events = make(&deriver!, settings.clock.now())
            guard !events.isEmpty else { return }
            for event in events {
                reporter(event)
                hooks?.offer(event)
            }
            eventLog.append(contentsOf: events.filter(\.type.isStored))
        }
    }

    private func emit(_ event: CollectEvent) {
        counted.withLock { $0.count(event) }
        // Node states go to the database as they change, for `mtt status` in another process. A
        // store that cannot take them fails the attempts too, and that ends the run.
        switch event {
        case .nodeLost(let node, let reason):
            try? store.records.recordNodeLost(node, session: session, reason: reason, at: settings.clock.now())
        case .nodeBack(let node, _):
            try? store.records.recordNodeConnected(node, session: session, at: settings.clock.now(), cameBack: true)
        default: break
        }
        observer(event)
        for follower in followers.withLock({ Array($0.values) }) { follower.yield(event) }
        derive { deriver, now in deriver.derive(event, at: now) }
    }

    private func collect() async throws {
        let emit: @Sendable (CollectEvent) -> Void = { [self] in self.emit($0) }
        let heartbeat: @Sendable () -> Void = { [self] in lastBeat.withLock { $0 = .now } }
        let store = self.store, session = self.session, ports = self.ports, settings = self.settings
        switch settings.mode {
        case .active:
            try await ActiveCollector(
                store: store, session: session, nodes: ports.nodes, fixes: ports.fixes, uplinks: ports.uplinks,
                policy: settings.policy, checkLinks: settings.checkLinks, clock: settings.clock, realClock: settings.realClock,
                heartbeat: heartbeat, emit: emit).run()
        // Without an uplink source (no network in the field) the track alone is recorded;
        // `mtt fetch` brings the uplinks later.
        case .matching:
            let collector = MatchingCollector(
                store: store, session: session, fixes: ports.fixes, uplinks: ports.uplinks, interval: settings.interval, clock: settings.clock, heartbeat: heartbeat, emit: emit)
            try await Self.runThenFlush(collector.run, collector.flush)
        case .listener, .imported:
            let collector = ListenerCollector(
                store: store, session: session, fixes: ports.fixes, uplinks: ports.uplinks, interval: settings.interval,
                payload: settings.payload,
                fieldTesters: settings.fieldTesters.flatMap { desk in ports.downlinks.map { (FieldTesterDesk(settings: desk), $0) } },
                clock: settings.clock, heartbeat: heartbeat, emit: emit)
            try await Self.runThenFlush(collector.run, collector.flush)
        }
    }

    /// However a track collector's run ends (a stop ends it without an error as often as with one),
    /// the uplinks still waiting for the track get their position, or the reason, afterwards.
    private static func runThenFlush(_ run: () async throws -> Void, _ flush: () async throws -> Void) async throws {
        var failure: (any Error)?
        do { try await run() } catch { failure = error }
        try await flush()
        if let failure { throw failure }
    }
}
