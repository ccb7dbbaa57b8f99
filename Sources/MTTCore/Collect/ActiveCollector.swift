import Logging

/// Active mode: mtt makes each node transmit whenever the send policy allows, stores every attempt
/// before the send and its outcome after, and — with a network source — joins each confirmed
/// attempt to the uplink the network heard, so the database knows per attempt whether it was heard,
/// by which gateways, at what RSSI and SNR.
public actor ActiveCollector {
    private let store: Store
    private let session: Int64
    private let nodes: [ActiveNode]
    private let fixes: any FixSource
    private let uplinks: (any UplinkSource)?
    private let policy: SendPolicy
    /// A link check with every send (`--linkcheck`).
    private let checkLinks: Bool
    private let clock: any TimeSource
    /// The nodes' own time: reconnects, joins, LoRaWAN's join budget and the battery's minute run
    /// on it whatever the run's speed (the node is in the real world); the system's but in tests.
    private let realClock: any TimeSource
    private let emit: @Sendable (CollectEvent) -> Void
    /// Called from each node's loop as it goes round: a stalled loop stops calling (the service's
    /// watchdog notices).
    private let heartbeat: @Sendable () -> Void
    private var latestFix: Fix?
    private var lastSends: [String: SendPolicy.LastSend] = [:]
    private var joiner = UplinkJoiner()
    private var attemptFixes: [Int64: Fix] = [:]
    private let logger = Logger(label: "mtt.collect")
    /// Between tries to reach a lost node again (DESIGN.md "On the road").
    private let reconnectBackoff: Backoff
    /// Each node's join-requests so far.
    private var joinBudgets: [String: JoinBudget] = [:]
    private let started: Timestamp

    public init(
        store: Store, session: Int64, nodes: [ActiveNode], fixes: any FixSource, uplinks: (any UplinkSource)?,
        policy: SendPolicy = SendPolicy(), checkLinks: Bool = false, clock: any TimeSource = SystemClock(), realClock: any TimeSource = SystemClock(),
        reconnectBackoff: Backoff = Backoff(initial: 0.5, maximum: 30, multiplier: 2, jitter: 0.2),
        heartbeat: @escaping @Sendable () -> Void = {},
        emit: @escaping @Sendable (CollectEvent) -> Void
    ) {
        self.reconnectBackoff = reconnectBackoff
        self.heartbeat = heartbeat
        self.store = store
        self.session = session
        self.nodes = nodes
        self.fixes = fixes
        self.uplinks = uplinks
        self.policy = policy
        self.checkLinks = checkLinks
        self.clock = clock
        self.realClock = realClock
        started = realClock.now()
        self.emit = emit
    }

    /// Runs until the task is cancelled. A storage failure (disk full) ends the run with that error;
    /// everything stored before it stays.
    public func run() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await self.followGPS() }
            if let uplinks = self.uplinks {
                group.addTask { try await self.listen(to: uplinks) }
            }
            for node in nodes {
                group.addTask { try await self.drive(node) }
            }
            // Every part runs until the run is stopped: a node that is lost for good ends only its
            // own part. The first error (a storage failure) ends the run.
            for try await _ in group {}
        }
    }

    private func followGPS() async throws {
        for await event in fixes.events() {
            if case .fix(let fix) = event {
                latestFix = fix
                try store.records.record(fix, session: session)
            }
            emit(.gps(event))
        }
        // A GPS replay ended: keep going until stopped, sending nothing new.
        try await realClock.sleep(seconds: .infinity)
    }

    private func drive(_ first: ActiveNode) async throws {
        var node = first
        let name = node.link.name
        var saidStale = false
        var batteryReadAt: Timestamp?
        // A modem reports no battery: its info() is five serial commands, not asked again for nothing.
        var reportsBattery = true
        // Stored with each attempt: the map shows the SF of the unheard ones too.
        var spreadingFactor: Int?
        while !Task.isCancelled {
            heartbeat()
            // The battery each minute (a BLE node notifies changes; the read costs nothing then).
            if reportsBattery, batteryReadAt.map({ realClock.seconds(since: $0) >= 60 }) ?? true {
                batteryReadAt = realClock.now()
                if let info = try? await node.link.info() {
                    spreadingFactor = info.spreadingFactor ?? spreadingFactor
                    if let level = info.battery { emit(.battery(node: name, percent: level)) } else { reportsBattery = false }
                }
            }
            let stale = latestFix.flatMap { policy.staleness(of: $0, now: clock.now()) }
            if let stale, !saidStale { emit(.stale(node: name, reason: stale)) }
            saidStale = stale != nil
            if let fix = latestFix, policy.reasonToWait(fix: fix, now: clock.now(), last: lastSends[name]) == nil {
                lastSends[name] = .init(time: fix.time, position: fix.point)
                do {
                    try await attempt(with: node, fix: fix, spreadingFactor: spreadingFactor)
                } catch NodeError.disconnected(_, let reason) {
                    // The attempt in flight is stored failed with the reason (in `attempt`).
                    guard let back = try await relink(node, lost: reason) else { return }
                    node = back
                    lastSends[name] = nil
                    batteryReadAt = nil
                    continue
                } catch NodeError.notJoined {
                    // Every modem starts so after power-up: mtt joins it, within LoRaWAN's budget.
                    let since = realClock.now()
                    emit(.nodeLost(node: name, reason: "not joined to the network; joining"))
                    do {
                        try await joinUntilJoined(node)
                        emit(.nodeBack(node: name, outage: realClock.seconds(since: since)))
                    } catch NodeError.disconnected(_, let reason) {
                        guard let back = try await relink(node, lost: reason, saidLost: true) else { return }
                        node = back
                    }
                    lastSends[name] = nil
                    continue
                } catch let error as StoreError {
                    // The database cannot take more: the run ends, with what it stored so far.
                    throw error
                } catch is CancellationError {
                    return
                } catch {
                    // One node's other trouble (a command refused, an unexpected answer) never ends the run.
                    logger.warning("\(name): \(error)")
                }
            }
            try await clock.sleep(seconds: 1)
        }
    }

    /// A node whose link dropped, reached again; nil when it has no way to be reached again.
    private func relink(_ node: ActiveNode, lost reason: String, saidLost: Bool = false) async throws -> ActiveNode? {
        if !saidLost { emit(.nodeLost(node: node.link.name, reason: reason)) }
        await node.link.close()
        guard let connector = node.connector else { return nil }
        return try await reconnect(node.link.name, by: connector, devEUI: node.devEUI)
    }

    /// Tries to open the node again, waiting 0.5 s doubling to 30 s (with jitter) between tries,
    /// for as long as the run lasts; no attempt is made meanwhile. Real seconds, whatever the
    /// run's speed: the node is in the real world.
    private func reconnect(_ name: String, by connector: any NodeConnector, devEUI: String?) async throws -> ActiveNode {
        let lost = realClock.now()
        var backoff = reconnectBackoff
        backoff.maximum = min(backoff.maximum, connector.longestRetryWait)
        while true {
            try await realClock.sleep(seconds: backoff.nextDelay())
            do {
                let link = try await connector.connect()
                do {
                    let info = try await link.info()
                    let node = ActiveNode(link: link, devEUI: info.devEUI ?? devEUI, connector: connector)
                    // A modem plugged back starts not joined: the outage ends when it can send again.
                    if !info.isJoined { try await joinUntilJoined(node) }
                    emit(.nodeBack(node: name, outage: realClock.seconds(since: lost)))
                    return node
                } catch {
                    await link.close()
                    throw error
                }
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                logger.debug("\(name): still unreachable: \(error)")
            }
        }
    }

    /// Join-requests until the node is joined, each within LoRaWAN's retransmission back-off for
    /// its airtime (at the node's spreading factor; SF12 when it does not say).
    private func joinUntilJoined(_ node: ActiveNode) async throws {
        let name = node.link.name
        let airtime = JoinBudget.joinRequestAirtime(spreadingFactor: (try? await node.link.info().spreadingFactor) ?? 12)
        // Between two unanswered join-requests at least 1 s, doubling to a minute: the budget alone
        // would let a modem that fails at once try hundreds of times in a row at SF7.
        var pause = Backoff(initial: 1, maximum: 60, multiplier: 2, jitter: 0.2)
        var first = true
        while true {
            if !first { try await realClock.sleep(seconds: pause.nextDelay()) }
            first = false
            let wait = joinBudgets[name, default: JoinBudget()].wait(at: steadySeconds(), airtime: airtime)
            if wait > 0 {
                logger.info("\(name): next join-request in \(Int(wait.rounded())) s (LoRaWAN's join back-off)")
                try await realClock.sleep(seconds: wait)
            }
            joinBudgets[name, default: JoinBudget()].record(at: steadySeconds(), airtime: airtime)
            do {
                if try await node.link.join() { return }
            } catch {
                // A node that went away, or a stop, ends the joining; any other failure is tried again.
                if case NodeError.disconnected = error { throw error }
                if error is CancellationError { throw error }
                logger.warning("\(name): join failed: \(error)")
            }
        }
    }

    /// Seconds on a steady clock, for the join budget.
    private func steadySeconds() -> Double {
        realClock.seconds(since: started)
    }

    private func attempt(with node: ActiveNode, fix: Fix, spreadingFactor: Int?) async throws {
        let name = node.link.name
        let payload = LocationPayload(format: .tracked, latitude: fix.latitude, longitude: fix.longitude).bytes
        // Stored before the send: a crash or kill mid-send leaves a pending attempt, resolved at the next start.
        let id = try store.records.record(Attempt(
            sessionID: session, node: name, payload: payload, fix: fix, sentAt: clock.now(), devEUI: node.devEUI,
            spreadingFactor: spreadingFactor))
        attemptFixes[id] = fix
        // Uplinks come within seconds; the fixes of long-unheard attempts need not be kept.
        if attemptFixes.count > 1_000, let oldest = attemptFixes.keys.min() { attemptFixes[oldest] = nil }
        emit(.attempt(node: name, id: id, fix: fix))
        let result: SendResult
        do {
            result = try await node.link.send(payload, checkingLink: checkLinks)
        } catch {
            let reason = error is CancellationError ? "mtt stopped before the node reported a result" : "\(error)"
            try store.records.failAttempt(id, reason: reason, at: clock.now())
            emit(.failed(node: name, id: id, reason: reason))
            throw error
        }
        switch result.outcome {
        case .confirmed(let frameCounter):
            try store.records.confirmAttempt(id, frameCounter: frameCounter, sequence: result.sequence, linkCheck: result.linkCheck, at: clock.now())
            emit(.confirmed(node: name, id: id, frameCounter: frameCounter, linkCheck: result.linkCheck))
            if let devEUI = node.devEUI, let frameCounter,
               let uplinkID = joiner.confirmed(attempt: id, devEUI: devEUI, frameCounter: frameCounter) {
                try linkAndSample(attempt: id, uplink: uplinkID)
            }
        case .failed(let reason):
            attemptFixes[id] = nil  // never sent, so never heard
            try store.records.failAttempt(id, reason: reason, sequence: result.sequence, at: clock.now())
            emit(.failed(node: name, id: id, reason: reason))
        }
    }

    private func listen(to source: any UplinkSource) async throws {
        for await event in source.events() {
            switch event {
            case .uplink(let uplink):
                let uplinkID = try store.records.record(uplink, session: session)
                var attemptID: Int64?
                if let devEUI = uplink.devEUI, let fCnt = uplink.fCnt,
                   let waiting = joiner.heard(uplink: uplinkID, devEUI: devEUI, frameCounter: fCnt) {
                    attemptID = waiting
                    try linkAndSample(attempt: waiting, uplink: uplinkID)
                }
                emit(.heard(uplinkID: uplinkID, uplink: uplink, attemptID: attemptID))
            case .connected(let detail):
                emit(.network(connected: true, detail: detail))
            case .lost(let reason):
                emit(.network(connected: false, detail: reason))
            case .failed(let reason):
                throw CollectError.network(reason)
            }
        }
    }

    /// The attempt was heard: link it, and place the uplink where the node was when it sent.
    private func linkAndSample(attempt: Int64, uplink: Int64) throws {
        let fix = attemptFixes.removeValue(forKey: attempt)
        let sample = try store.batch { try $0.recordHeard(attempt: attempt, uplink: uplink, session: session, fix: fix) }
        emit(.joined(attempt: attempt, uplink: uplink))
        if let sample { emit(.sample(sample)) }
    }
}
