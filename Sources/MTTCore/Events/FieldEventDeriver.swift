/// Turns a run's events into field events: each attempt, uplink and rig change as it happens, and
/// what follows from them over time: an attempt nobody heard within `heardWithin` is lost, a run of
/// lost attempts (or a long silence) is coverage lost until the next uplink, a gateway this
/// database never heard before is new, a node's battery under the threshold is low. Fed one event
/// at a time and ticked about once a second; not thread-safe (the run holds it under a lock).
public struct FieldEventDeriver: Sendable {
    private let session: Int64
    private let rules: AlertRules
    private let mode: CollectionMode
    /// Without a network source nothing can be heard: no lost attempts, no coverage events.
    private let hearsTheNetwork: Bool
    private var knownGateways: Set<String>
    private var attemptFixes: [Int64: Fix] = [:]
    private var waiting: [Int64: (node: String, since: Timestamp)] = [:]
    private var lostInARow = 0
    private var lastHeard: Timestamp
    private var coverageLostAt: Timestamp?
    private var latestFix: Fix?
    private var gpsLostAt: Timestamp?
    /// When the reports without a fix began, while they have not lasted long enough to be a loss.
    private var noFixSince: Timestamp?
    /// Reports without a fix for this long are the GPS lost: a receiver that misses one epoch
    /// (an NMEA capture has some) said "GPS lost" and "GPS back after 0 s" at once.
    public static let noFixLostAfter = 3.0
    /// The reason of a `gps_lost` that a receiver without a fix caused (the source itself still there).
    public static let noFixReason = "no fix"
    private var lowBatteries: Set<String> = []
    /// The types someone takes (the output, a hook, the database). The events made once per uplink,
    /// sample or fix are made only for them: a listener burst built two events per uplink that
    /// nobody read, a tenth of its work (scripts/ingest-profile). The state follows every event.
    private let wanted: Set<FieldEventType>

    /// `knownGateways`: every gateway the database heard before this run.
    public init(
        session: Int64, mode: CollectionMode, rules: AlertRules, hearsTheNetwork: Bool, knownGateways: Set<String>, start: Timestamp,
        wanted: Set<FieldEventType> = Set(FieldEventType.allCases)
    ) {
        self.wanted = wanted
        self.session = session
        self.mode = mode
        self.rules = rules
        self.hearsTheNetwork = hearsTheNetwork
        self.knownGateways = knownGateways
        lastHeard = start
    }

    public mutating func derive(_ event: CollectEvent, at now: Timestamp) -> [FieldEvent] {
        let session = self.session, mapURL = rules.mapURL
        func make(_ type: FieldEventType, _ fill: (inout FieldEvent) -> Void = { _ in }) -> FieldEvent {
            Self.event(type, at: now, session: session, mapURL: mapURL, fill)
        }
        switch event {
        case .gps(.fix(let fix)):
            latestFix = fix
            noFixSince = nil
            var out: [FieldEvent] = []
            if let since = gpsLostAt {
                gpsLostAt = nil
                out.append(make(.gpsBack) { $0.place(fix.point); $0.outage = now.seconds(since: since) })
            }
            if wanted.contains(.fix) { out.append(make(.fix) { $0.place(fix.point) }) }
            return out
        case .gps(.noFix):
            // A GPS that had a fix and lost it is as gone for mapping as one unplugged.
            guard latestFix != nil, gpsLostAt == nil else { return [] }
            guard let since = noFixSince else {
                noFixSince = now
                return []
            }
            guard now.seconds(since: since) >= Self.noFixLostAfter else { return [] }
            // Lost since the first report without a fix: that is what "back after" counts from.
            gpsLostAt = since
            noFixSince = nil
            return [make(.gpsLost) { $0.reason = Self.noFixReason; $0.place(latestFix?.point) }]
        case .gps(.lost(let reason)):
            guard gpsLostAt == nil else { return [] }
            gpsLostAt = noFixSince ?? now
            noFixSince = nil
            return [make(.gpsLost) { $0.reason = reason; $0.place(latestFix?.point) }]
        case .gps(.connected(let spec)):
            return [make(.gpsConnected) { $0.detail = spec }]
        case .trackPoint(let fix):
            guard wanted.contains(.trackPoint) else { return [] }
            return [make(.trackPoint) { $0.place(fix.point) }]
        case .attempt(let node, let id, let fix):
            attemptFixes[id] = fix
            if attemptFixes.count > 1_000, let oldest = attemptFixes.keys.min() { attemptFixes[oldest] = nil }
            return [make(.attempt) { $0.node = node; $0.attempt = id; $0.place(fix.point) }]
        case .confirmed(let node, let id, let counter, let linkCheck):
            if hearsTheNetwork { waiting[id] = (node, now) }
            return [make(.confirmed) { e in
                e.node = node
                e.attempt = id
                e.fCnt = counter
                e.place(attemptFixes[id]?.point)
                // The link check's word: how many gateways (0: no answer) and the margin.
                e.gateways = linkCheck.map { $0.gateways ?? 0 }
                e.margin = linkCheck?.margin
            }]
        case .failed(let node, let id, let reason):
            return [make(.failed) { $0.node = node; $0.attempt = id; $0.reason = reason; $0.place(attemptFixes[id]?.point) }]
        case .heard(let uplinkID, let uplink, let attemptID):
            var out: [FieldEvent] = []
            if wanted.contains(.heard) { out.append(make(.heard) { e in
                e.uplink = uplinkID
                e.attempt = attemptID
                e.device = uplink.deviceID
                e.fCnt = uplink.fCnt
                e.gateways = uplink.receptions.count
                e.heardBy = uplink.receptions.map(\.gatewayID)
                let best = uplink.receptions.max { ($0.rssi ?? -999) < ($1.rssi ?? -999) }
                e.rssi = best?.rssi
                e.snr = best?.snr
                e.place((attemptID.flatMap { attemptFixes[$0] } ?? latestFix)?.point)
            }) }
            if let attemptID { waiting[attemptID] = nil }
            if let back = heardSomething(at: now, uplink: uplink) { out.append(back) }
            for reception in uplink.receptions where reception.namesAGateway && !knownGateways.contains(reception.gatewayID) {
                knownGateways.insert(reception.gatewayID)
                out.append(make(.newGateway) { e in
                    e.gateway = .init(id: reception.gatewayID, eui: reception.gatewayEUI, lat: reception.location?.latitude, lon: reception.location?.longitude)
                    e.rssi = reception.rssi
                    e.snr = reception.snr
                    e.device = uplink.deviceID
                    e.place(latestFix?.point)
                })
            }
            return out
        case .joined(let attempt, _):
            // Also an uplink that came before its attempt's result: that attempt was heard.
            waiting[attempt] = nil
            return []
        case .sample(let sample):
            guard wanted.contains(.sample) else { return [] }
            return [make(.sample) { e in
                e.place(sample.position)
                e.method = sample.method.rawValue
                e.reason = sample.reason
                switch sample.subject {
                case .attempt(let id): e.attempt = id
                case .uplink(let id): e.uplink = id
                }
            }]
        case .network(let connected, let detail):
            return [make(connected ? .networkConnected : .networkLost) { $0.detail = detail }]
        case .stale(let node, let reason):
            return [make(.stale) { $0.node = node; $0.reason = reason; $0.place(latestFix?.point) }]
        case .storeBusy(let reason):
            return [make(.storeBusy) { $0.reason = reason }]
        case .storeBack(let outage):
            return [make(.storeBack) { $0.outage = outage }]
        case .fieldTestAnswered(let uplinkID, let uplink, let reply):
            return [make(.fieldTestAnswered) { e in
                e.device = uplink.deviceID
                e.uplink = uplinkID
                e.fCnt = uplink.fCnt
                e.gateways = reply.gateways
                e.detail = Hex.string(reply.bytes)
                e.reason = reply.reason
            }]
        case .fieldTestNotAnswered(let device, let reason):
            return [make(.fieldTestHeldBack) { $0.device = device; $0.reason = reason }]
        case .nodeLost(let node, let reason):
            return [make(.nodeLost) { $0.node = node; $0.reason = reason; $0.place(latestFix?.point) }]
        case .nodeBack(let node, let outage):
            return [make(.nodeBack) { $0.node = node; $0.outage = outage; $0.place(latestFix?.point) }]
        case .battery(let node, let percent):
            if percent > rules.batteryLow + 5 { lowBatteries.remove(node) }
            // Said once as it crosses the line; a level wobbling around it is not said again.
            guard percent <= rules.batteryLow, !lowBatteries.contains(node) else { return [] }
            lowBatteries.insert(node)
            return [make(.batteryLow) { $0.node = node; $0.battery = percent; $0.place(latestFix?.point) }]
        }
    }

    /// What time alone decides: attempts not heard in time are lost; coverage is lost after a run
    /// of them, or after a long silence.
    public mutating func tick(at now: Timestamp) -> [FieldEvent] {
        guard hearsTheNetwork else { return [] }
        var out: [FieldEvent] = []
        let session = self.session, mapURL = rules.mapURL
        func make(_ type: FieldEventType, _ fill: (inout FieldEvent) -> Void) -> FieldEvent {
            Self.event(type, at: now, session: session, mapURL: mapURL, fill)
        }
        for (id, attempt) in waiting.sorted(by: { $0.key < $1.key }) where now.seconds(since: attempt.since) >= rules.heardWithin {
            waiting[id] = nil
            let fix = attemptFixes.removeValue(forKey: id)
            out.append(make(.lost) { $0.node = attempt.node; $0.attempt = id; $0.place(fix?.point) })
            lostInARow += 1
            if coverageLostAt == nil && lostInARow >= rules.coverageLostAfter {
                coverageLostAt = now
                out.append(make(.coverageLost) { $0.missed = lostInARow; $0.place((fix ?? latestFix)?.point) })
            }
        }
        let silence = now.seconds(since: lastHeard)
        if coverageLostAt == nil && silence >= rules.coverageSilence && (mode != .active || lostInARow > 0) {
            coverageLostAt = now
            out.append(make(.coverageLost) { $0.silence = silence; $0.place(latestFix?.point) })
        }
        return out
    }

    /// An uplink came: the silence and the run of lost attempts end, and coverage lost, if it was.
    private mutating func heardSomething(at now: Timestamp, uplink: Uplink) -> FieldEvent? {
        lastHeard = now
        lostInARow = 0
        guard let since = coverageLostAt else { return nil }
        coverageLostAt = nil
        let place = latestFix?.point
        return Self.event(.coverageBack, at: now, session: session, mapURL: rules.mapURL) { e in
            e.outage = now.seconds(since: since)
            e.heardBy = uplink.receptions.map(\.gatewayID)
            e.place(place)
        }
    }

    private static func event(
        _ type: FieldEventType, at now: Timestamp, session: Int64, mapURL: String?, _ fill: (inout FieldEvent) -> Void
    ) -> FieldEvent {
        var e = FieldEvent(type, at: now, session: session)
        fill(&e)
        if let mapURL { e.url = MapLink.url(base: mapURL, at: e.position) }
        return e
    }
}
