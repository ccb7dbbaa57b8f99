/// The engine of matching and listener modes: records the track, stores every uplink of the chosen
/// devices as it arrives, and positions each one at its earliest gateway receive time once the
/// track covers that time (or can no longer cover it).
actor TrackCollector {
    struct Settings {
        /// Seconds between stored track points.
        var interval: Double
        /// Above this speed (m/s) every fix is stored.
        var fastSpeed: Double = 8
        var placement: TrackPlacement
        /// Positions from the uplinks' own payloads (`--gps payload`), before the track's.
        var payload: PayloadPlacement?
        /// The field testers answered, and where their replies go.
        var fieldTesters: (desk: FieldTesterDesk, downlinks: any DownlinkSender)?
    }

    private let store: Store
    private let session: Int64
    private let fixes: any FixSource
    /// Nil without a network in the field: the track alone is recorded, for `mtt fetch` later.
    private let uplinks: (any UplinkSource)?
    private let settings: Settings
    private let clock: any TimeSource
    private let emit: @Sendable (CollectEvent) -> Void
    private let heartbeat: @Sendable () -> Void
    private var track: [Fix] = []
    private var lastStored: Fix?
    private var waiting: [(id: Int64, time: Timestamp)] = []
    /// Each device's frame counter, for the frames nobody heard (with payload positions).
    private var gaps: FrameCounterGaps
    /// Which field testers' tests were answered today.
    private var desk: FieldTesterDesk?
    private var refusalSaid = false
    /// Since when another program has held the database's write lock, while it does.
    private var storeBusySince: Timestamp?

    init(
        store: Store, session: Int64, fixes: any FixSource, uplinks: (any UplinkSource)?, settings: Settings,
        clock: any TimeSource, heartbeat: @escaping @Sendable () -> Void = {}, emit: @escaping @Sendable (CollectEvent) -> Void
    ) {
        self.heartbeat = heartbeat
        self.store = store
        self.session = session
        self.fixes = fixes
        self.uplinks = uplinks
        self.settings = settings
        gaps = FrameCounterGaps(rules: settings.payload?.gaps ?? .init())
        desk = settings.fieldTesters?.desk
        self.clock = clock
        self.emit = emit
    }

    /// Runs until cancelled; then `flush()` positions what was still waiting.
    func run() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await self.followGPS() }
            // Also the loop the heartbeat comes from, with or without uplinks.
            group.addTask { try await self.expireWaiting() }
            if let uplinks = self.uplinks {
                group.addTask { try await self.listen(to: uplinks) }
            }
            if let downlinks = self.settings.fieldTesters?.downlinks {
                group.addTask {
                    for await refusal in downlinks.refusals() { await self.refused(refusal) }
                    try await self.clock.sleep(seconds: .infinity)
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }

    /// Positions what is still waiting, for a clean stop: the track will not grow any more.
    func flush() throws {
        var pending = waiting[...]
        waiting = []
        try storeSamples(&pending)
    }

    private func followGPS() async throws {
        for await event in fixes.events() {
            // Every GPS event, as active mode does: GPS connected, lost and back are said in
            // matching and listener mode too (they were never reported there).
            emit(.gps(event))
            guard case .fix(let fix) = event else { continue }
            let due = lastStored.map { fix.time.seconds(since: $0.time) >= settings.interval } ?? true
            let fast = (fix.speed ?? 0) > settings.fastSpeed
            guard due || fast else { continue }
            try await whileStoreBusy { try store.records.record(fix, session: session) }
            track.append(fix)
            lastStored = fix
            emit(.trackPoint(fix))
            // Taken off the waiting list once, then stored however long the database is locked.
            var covered = positionCovered()[...]
            try await whileStoreBusy { try storeSamples(&covered) }
        }
        // A GPS replay ended: keep going until stopped.
        try await clock.sleep(seconds: .infinity)
    }

    /// Uplinks are stored a batch at a time: whatever arrived while the last commit ran goes into
    /// the next one, so a burst costs one commit per batch, and each uplink is reported only once its
    /// transaction is durable.
    private func listen(to uplinks: any UplinkSource) async throws {
        let events = uplinks.queuedEvents()
        defer { events.stop() }
        while let batch = await events.queue.next() {
            var heard: [Uplink] = []
            for event in batch {
                switch event {
                case .uplink(let uplink):
                    heard.append(uplink)
                case .connected(let detail):
                    emit(.network(connected: true, detail: detail))
                case .lost(let reason):
                    emit(.network(connected: false, detail: reason))
                    // What the network heard while mtt could not hear it is no gap in a device's
                    // frames: the counters start again after the outage (`mtt fetch` fills it in).
                    try await whileStoreBusy { try storeHeard(heard) }
                    heard = []
                    gaps = FrameCounterGaps(rules: gaps.rules)
                case .failed(let reason):
                    try await whileStoreBusy { try storeHeard(heard) }
                    throw CollectError.network(reason)
                }
            }
            // Not taking the next batch while this one waits is what leaves a burst in the broker.
            try await whileStoreBusy { try storeHeard(heard) }
        }
    }

    private func storeHeard(_ heard: [Uplink]) throws {
        guard !heard.isEmpty else { return }
        var ids: [Int64] = []
        var samples: [Sample] = []
        let (waitingBefore, gapsBefore) = (waiting, gaps)
        do {
            try store.batch { batch in
                ids = try heard.map { try batch.record($0, session: session) }
                for (id, uplink) in zip(ids, heard) {
                    guard let payload = settings.payload else {
                        if let sample = placedAtOnce(id, uplink.earliestReceiveTime) { samples.append(sample) }
                        else { waiting.append((id, uplink.earliestReceiveTime)) }
                        continue
                    }
                    let sample = payload.sample(uplink: uplink, id: id, session: session) ?? placedAtOnce(id, uplink.earliestReceiveTime)
                    if let sample { samples.append(sample) } else { waiting.append((id, uplink.earliestReceiveTime)) }
                    for estimated in gaps.heard(uplink, id: id, session: session, position: sample?.position) { try batch.record(estimated) }
                }
                samples += positionCovered().map { position($0) }
                for index in samples.indices { samples[index].id = try batch.record(samples[index]) }
            }
        } catch {
            // Rolled back: the ids were never stored, nor the frames estimated from them.
            (waiting, gaps) = (waitingBefore, gapsBefore)
            throw error
        }
        // Stored first: a test is answered only once it is kept.
        answerFieldTests(heard, ids: ids)
        for (id, uplink) in zip(ids, heard) { emit(.heard(uplinkID: id, uplink: uplink, attemptID: nil)) }
        for sample in samples { emit(.sample(sample)) }
    }

    /// A reply the server refused: said once a run, as each later one would be for the same reason
    /// (the MQTT user's rights); the tests are mapped all the same.
    private func refused(_ refusal: DownlinkError) {
        guard !refusalSaid else { return }
        refusalSaid = true
        emit(.fieldTestNotAnswered(device: nil, reason: refusal.description))
    }

    /// Each field tester's test gets its reply, at once: it must reach the network server before
    /// the tester's next uplink opens the receive windows it is sent in.
    private func answerFieldTests(_ heard: [Uplink], ids: [Int64]) {
        guard desk != nil, let downlinks = settings.fieldTesters?.downlinks else { return }
        let store = self.store
        for (id, uplink) in zip(ids, heard) {
            let answer = desk!.answer(uplink, now: clock.now()) { gateway in try? store.coverage.reportedPosition(of: gateway) }
            switch answer {
            case .none:
                continue
            case .heldBack(let first):
                guard first else { continue }
                emit(.fieldTestNotAnswered(
                    device: uplink.deviceID,
                    reason: "\(desk!.settings.dailyCap) replies today, the cap ([field_tester] daily_cap, TTN's fair use): holding back until midnight UTC"))
            case .reply(let downlink, let reply):
                do throws(DownlinkError) {
                    try downlinks.send(downlink)
                    // For the map; the event keeps the bytes too, should the database be busy.
                    try? store.records.recordFieldTestReply(reply, uplink: id, at: clock.now())
                    emit(.fieldTestAnswered(uplinkID: id, uplink: uplink, reply: reply))
                } catch {
                    emit(.fieldTestNotAnswered(device: uplink.deviceID, reason: error.description))
                }
            }
        }
    }

    /// Uplinks whose time the track will never reach (a gap longer than allowed) are positioned
    /// with what there is, so nothing waits forever.
    private func expireWaiting() async throws {
        while !Task.isCancelled {
            heartbeat()
            try await clock.sleep(seconds: 1)
            let now = clock.now()
            let isExpired = { (w: (id: Int64, time: Timestamp)) in now.seconds(since: w.time) > self.settings.placement.maximumGap }
            var expired = waiting.filter(isExpired)[...]
            guard !expired.isEmpty else { continue }
            waiting.removeAll(where: isExpired)
            try await whileStoreBusy { try storeSamples(&expired) }
        }
    }

    /// Runs a write again while another program holds the database's write lock past SQLite's own
    /// wait: said once, the records in hand kept, then said again when the database takes them.
    /// A stop ends the wait. (A `sqlite3` shell left in a transaction, or a long rebuild, stopped
    /// the run and lost the uplinks it had taken from the broker.)
    private func whileStoreBusy(_ write: () throws -> Void) async throws {
        while true {
            do {
                try write()
                if let since = storeBusySince {
                    storeBusySince = nil
                    emit(.storeBack(outage: SystemClock().seconds(since: since)))
                }
                return
            } catch StoreError.busy {
                if storeBusySince == nil {
                    // SQLite waited its timeout before it gave up.
                    storeBusySince = SystemClock().now().adding(seconds: -Store.busyTimeout)
                    emit(.storeBusy(reason: StoreError.busy.description))
                }
                // Another program's lock is held in real seconds, whatever the run's clock.
                try await SystemClock().sleep(seconds: 0.1)
            }
        }
    }

    /// The waiting uplinks that the track now covers, taken off the waiting list.
    private func positionCovered() -> [(id: Int64, time: Timestamp)] {
        guard let end = track.last?.time else { return [] }
        let ready = waiting.filter { $0.time <= end }
        guard !ready.isEmpty else { return [] }
        waiting.removeAll { $0.time <= end }
        return ready
    }

    /// Positions the uplinks and stores their samples, `samplesPerTransaction` at a time, each
    /// group reported once it is durable and taken off `uplinks`, so that a write the database
    /// refuses midway is tried again from the first group not stored.
    private func storeSamples(_ uplinks: inout ArraySlice<(id: Int64, time: Timestamp)>) throws {
        while !uplinks.isEmpty {
            var samples = uplinks.prefix(Self.samplesPerTransaction).map { position($0) }
            try store.batch { batch in
                for index in samples.indices { samples[index].id = try batch.record(samples[index]) }
            }
            uplinks = uplinks.dropFirst(samples.count)
            for sample in samples { emit(.sample(sample)) }
        }
    }

    /// Samples built and stored at once: a stop with tens of thousands of uplinks waiting for a
    /// track that had not reached their time (a receive time ahead of the GPS's clock) built them
    /// all in one array, 10 MB at the listener's peak (shared/bench's load).
    static let samplesPerTransaction = 512

    /// The sample of an uplink heard by a GPS that never moves, once it has said where it is: the
    /// latest fix is right for any time. (Waiting for the track instead held every uplink whose
    /// receive time was ahead of this machine's clock, shared/bench's whole burst, in memory.)
    private func placedAtOnce(_ id: Int64, _ time: Timestamp) -> Sample? {
        guard fixes.isStationary, let latest = track.last else { return nil }
        return Sample(sessionID: session, subject: .uplink(id), time: time, position: latest.point, method: .latestFix)
    }

    private func position(_ uplink: (id: Int64, time: Timestamp)) -> Sample {
        settings.placement.sample(uplink: uplink.id, session: session, at: uplink.time, on: track)
    }
}
