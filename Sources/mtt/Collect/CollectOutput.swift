import Foundation
import MTTCore
import Synchronization

/// What `mtt collect` shows: on a terminal a status block redrawn each second; otherwise one log
/// line per event; with `--json` one JSON object per event.
final class CollectOutput: Sendable {
    enum Style { case live, lines, json }

    let style: Style
    private let clock: any TimeSource
    private let nodes: [String]
    private let nodeInfos: [String: NodeInfo]
    /// The run whose numbers the status block shows, once it exists.
    private let run = Mutex<CollectionRun?>(nil)
    private let unsynced = Mutex<[String: Int]>([:])
    /// What the run reported, in order: its own events (for the log lines) and the field events
    /// (for --json, and the alerts among the log lines).
    private enum Item {
        case run(CollectEvent)
        case field(FieldEvent)
    }
    private let events = Mutex<[(Timestamp, Item)]>([])
    /// Whether the GPS and the network were ever connected, kept by the one flusher: "lost" is
    /// for a source that went away, "not available" for one that never came.
    private let writing = Mutex((gps: false, network: false))

    /// Events waiting for their lines before the collector writes them itself. Each holds its
    /// uplink, so this bounds memory as much as the store's queue does.
    static let backlogLimit = 512

    /// Whether anything can tell heard from lost in this run (MQTT or the simulated network).
    private let hasNetworkSource: Bool
    /// Says when the last fix is too old to send on (marked STALE).
    private let policy: SendPolicy

    init(style: Style, clock: any TimeSource, nodeInfos: [String: NodeInfo], hasNetworkSource: Bool = true, policy: SendPolicy = SendPolicy()) {
        self.style = style
        self.hasNetworkSource = hasNetworkSource
        self.policy = policy
        self.clock = clock
        self.nodeInfos = nodeInfos
        nodes = nodeInfos.keys.sorted()
        reportedTypes = switch style {
        case .json: Set(FieldEventType.allCases)
        case .lines: [.lost, .coverageLost, .coverageBack, .newGateway, .batteryLow, .gpsBack, .gpsLost]
        case .live: []
        }
    }

    /// Counts the event; its line is written at the next `flush()`, on the caller of `flush()`, so the
    /// collector's own thread spends no time formatting text.
    func handle(_ event: CollectEvent) {
        guard style == .lines else { return }
        queue(.run(event))
    }

    /// A field event: a JSON line with --json; among the log lines, the alerts.
    func handle(_ event: FieldEvent) {
        guard reportedTypes.contains(event.type) else { return }
        // A receiver without a fix for a while: the run's own events say only that gpsd went away.
        if style == .lines, event.type == .gpsLost, event.reason != FieldEventDeriver.noFixReason { return }
        queue(.field(event))
    }

    /// The field event types `handle(_:)` keeps (the run makes no others for it): every one with
    /// --json; among the log lines, what the run's own events do not say already.
    let reportedTypes: Set<FieldEventType>

    private func queue(_ item: Item) {
        let backlog = events.withLock { list in
            list.append((clock.now(), item))
            return list.count
        }
        // The flusher runs on the same busy threads; when it falls behind, the collector writes
        // the lines itself rather than let them pile up in memory.
        if backlog >= Self.backlogLimit { flush() }
    }

    func attach(_ run: CollectionRun) {
        self.run.withLock { $0 = run }
    }

    func setUnsynced(_ counts: [String: Int]) {
        unsynced.withLock { $0 = counts }
    }

    /// The status block, for a terminal: cursor home and clear, then the lines.
    func redraw() {
        guard style == .live else { return }
        let s = run.withLock { $0 }?.stats ?? CollectionStats()
        let unsynced = self.unsynced.withLock { $0 }
        let now = clock.now()
        var lines = ["mtt collect — Ctrl-C to stop", ""]
        if let fix = s.lastFix {
            lines.append(String(format: "GPS      %@%@  sats %@  hdop %@  age %.0f s  (%.5f, %.5f)",
                                fix.mode == .threeD ? "3D" : "2D", policy.staleness(of: fix, now: now) != nil ? " STALE" : "", fix.satellites.map(String.init) ?? "?",
                                fix.hdop.map { String(format: "%.1f", $0) } ?? "?", now.seconds(since: fix.time), fix.latitude, fix.longitude))
        } else {
            lines.append("GPS      \(s.gps)")
        }
        for name in nodes {
            let info = nodeInfos[name]
            let state = s.lostNodes[name].map { "LOST (\($0)), reconnecting" } ?? "battery \(info?.battery.map { "\($0) %" } ?? "?")  SF\(info?.spreadingFactor.map(String.init) ?? "?")"
            let back = s.reconnects[name].map { "  back \($0)×" } ?? ""
            lines.append("Node     \(name)  \(state)\(back)")
        }
        lines.append("Network  \(s.network)")
        if let last = s.lastAttempt {
            lines.append(String(format: "Last try %.0f s ago (%@)", now.seconds(since: last.time), last.node))
        }
        if let success = s.lastSuccess {
            let best = success.uplink.receptions.max { ($0.rssi ?? -999) < ($1.rssi ?? -999) }
            lines.append(String(format: "Heard    %.0f s ago  RSSI %@  SNR %@  %@", now.seconds(since: success.time),
                                best?.rssi.map { String(format: "%.0f", $0) } ?? "?", best?.snr.map { String(format: "%.1f", $0) } ?? "?",
                                CountText.of(success.uplink.receptions.count, "gateway")))
        }
        let loss = !hasNetworkSource ? "not known (no network source)"
            : s.lossPercent.map { String(format: "%.0f %%", $0) } ?? "n/a"
        lines.append("Counts   attempts \(s.attempts)  confirmed \(s.confirmed)  failed \(s.failed)  heard \(s.heard)  loss \(loss)  uplinks \(s.uplinks)"
            + (s.linkChecks > 0 ? "  link checks answered \(s.linkChecksAnswered) of \(s.linkChecks)" : ""))
        lines.append("To sync  " + unsynced.keys.sorted().map { "\($0) \(unsynced[$0] ?? 0)" }.joined(separator: ", "))
        StandardOutput.write("\u{1B}[H\u{1B}[2J" + lines.joined(separator: "\n") + "\n")
    }

    private static func note(_ event: CollectEvent, in seen: inout (gps: Bool, network: Bool)) {
        switch event {
        case .gps(.connected): seen.gps = true
        case .network(true, _): seen.network = true
        default: break
        }
    }

    /// The event's log line, if it deserves one.
    private static func line(for event: CollectEvent, seen: (gps: Bool, network: Bool)) -> String? {
        switch event {
        case .gps(.fix), .gps(.noFix), .trackPoint: return nil
        case .gps(.connected(let spec)): return "GPS connected: \(spec)"
        case .gps(.lost(let reason)): return seen.gps ? "GPS lost: \(reason)" : "GPS not available: \(reason)"
        case .attempt(let node, let id, let fix):
            return "attempt \(id) by \(node) at " + PlaceText.of(latitude: fix.latitude, longitude: fix.longitude)
        case .confirmed(let node, let id, let counter, let linkCheck):
            return "attempt \(id) sent by \(node) (f_cnt \(counter.map(String.init) ?? "?"))" + (linkCheck.map { ", \($0.text)" } ?? "")
        case .failed(let node, let id, let reason): return "attempt \(id) by \(node) failed: \(reason)"
        case .heard(_, let uplink, let attemptID):
            let best = uplink.receptions.compactMap(\.rssi).max().map { String(format: "%.0f dBm", $0) } ?? "?"
            return "heard \(uplink.deviceID) f_cnt \(uplink.fCnt ?? 0) by \(CountText.of(uplink.receptions.count, "gateway")), best \(best)" + (attemptID.map { " (attempt \($0))" } ?? "")
        case .sample(let sample):
            if let p = sample.position {
                return "sample \(sample.method.rawValue) at " + PlaceText.of(latitude: p.latitude, longitude: p.longitude)
            }
            return "sample without a position: \(sample.reason ?? "?")"
        case .fieldTestAnswered(_, let uplink, let reply):
            return "answered \(uplink.deviceID)'s test f_cnt \(uplink.fCnt ?? 0): \(Hex.string(reply.bytes))" + (reply.reason.map { " (\($0))" } ?? "")
        case .fieldTestNotAnswered(let device, let reason):
            return device.map { "\($0)'s test not answered: \(reason)" } ?? "field tests not answered: \(reason)"
        case .network(let connected, let detail):
            if connected { return "network connected: \(detail)" }
            return seen.network ? "network lost: \(detail)" : "network not reachable: \(detail)"
        case .nodeLost(let node, let reason): return "node \(node) lost: \(reason) (reconnecting)"
        case .nodeBack(let node, let outage): return String(format: "node %@ back after %.1f s", node, outage)
        case .stale(let node, let reason): return "\(node) is not sending, GPS STALE: \(reason)"
        case .storeBusy(let reason): return "database busy: \(reason); mtt keeps what it has and tries again"
        case .storeBack(let outage): return "database writable again after \(Int(outage.rounded())) s"
        case .battery, .joined: return nil
        }
    }

    /// Writes the lines of the events so far (called ten times a second, and at the end).
    func flush() {
        // One flusher at a time, so lines come out in the order of their events.
        writing.withLock { seen in
            let batch = events.withLock { list -> [(Timestamp, Item)] in
                // Emptied at its size: grown again from nothing, the list was reallocated some nine
                // times per flush in a burst.
                defer { list.removeAll(keepingCapacity: true) }
                return list
            }
            guard !batch.isEmpty else { return }
            var data = Data()
            // A burst (a broker emptying its queue after a reconnect) gets one line, not thousands.
            let burst = style == .lines && batch.count > 50
            var heard = 0, positioned = 0, unpositioned = 0
            for (time, item) in batch {
                let event: CollectEvent
                switch item {
                case .field(let field):
                    if style == .json {
                        data += field.json() + [0x0A]
                    } else {
                        data += Data("\(RFC3339.string(time, fractionDigits: 0))  \(field.summary)\n".utf8)
                    }
                    continue
                case .run(let runEvent): event = runEvent
                }
                defer { Self.note(event, in: &seen) }
                if burst {
                    switch event {
                    case .heard:
                        heard += 1
                        continue
                    case .sample(let sample):
                        if sample.position == nil { unpositioned += 1 } else { positioned += 1 }
                        continue
                    default: break
                    }
                }
                if let line = Self.line(for: event, seen: seen) { data += Data("\(RFC3339.string(time, fractionDigits: 0))  \(line)\n".utf8) }
            }
            if heard + positioned + unpositioned > 0 {
                let time = RFC3339.string(batch[batch.count - 1].0, fractionDigits: 0)
                data += Data("\(time)  stored \(heard) uplink(s) and \(positioned + unpositioned) sample(s), \(unpositioned) without a position\n".utf8)
            }
            if !data.isEmpty { StandardOutput.write([UInt8](data)) }
        }
    }
}
