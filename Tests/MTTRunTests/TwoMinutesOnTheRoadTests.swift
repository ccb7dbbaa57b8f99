import Foundation
import MTTBluetooth
import MTTCore
import MTTSerial
import Synchronization
import TestSupport
import Testing

/// Two minutes of an active drive at 10× (`--speed 10`) through MTTCore's `CollectionRun`, with
/// the real reconnect back-off: the BLE node goes out of range every 20 s and refuses connections
/// for 4 s; an RN2483 and a RUI3 are unplugged twice each (pseudo-terminal closed, by-id style link
/// removed) and plugged back 5 s later on a new pseudo-terminal behind the same link, not joined.
/// Every drop and unplugging happens with an attempt in flight.
@Suite("Two minutes on the road")
struct TwoMinutesOnTheRoadTests {
    static let speed = 10.0

    @Test func everyNodeIsReachedAgainJoinedAndDrivenAfterEveryOutage() async throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.file("road.sqlite"))
        let clock = ScaledClock(scale: Self.speed)
        let ble = try await EmulatedNode.start(index: 1, sendTimeout: 2)
        // Long enough on the air that a drop can be timed to meet a send in flight.
        await ble.emulator.configure { $0.airtime = 0.15 }
        var modems: [PluggedModem] = []
        for kind in [ModemKind.rn2483, .rui3] {
            modems.append(try await PluggedModem(kind: kind, link: dir.file("usb-\(kind.rawValue)-if00")))
        }
        let range = GatedConnector(ble)
        var nodes = [ActiveNode(link: ble.node, devEUI: try await ble.node.info().devEUI, connector: range)]
        for modem in modems {
            let link = try await modem.connector.connect()
            nodes.append(ActiveNode(link: link, devEUI: try await link.info().devEUI, connector: modem.connector))
        }
        let names = nodes.map(\.link.name)
        let plugged = modems
        let log = CollectEventLog()
        let run = try CollectionRun(
            store: store, ports: .init(fixes: MovingFixSource(clock: clock), nodes: nodes),
            settings: .init(mode: .active, policy: CollectEventLog.brisk, interval: 5, clock: clock), observe: log.emit)
        let started = ContinuousClock.now
        run.start()

        // The outages, at drive seconds; each waits for a send in flight on a node that is back.
        func at(_ driveSeconds: Double) async throws {
            // Deliberate pacing: the outages are the drive's script, at its seconds.
            try await Task.sleep(until: started + .seconds(driveSeconds / Self.speed))
        }
        async let bleOutages: Void = {
            for second in stride(from: 20.0, through: 100, by: 20) {
                try await at(second)
                try await log.waitForSendInFlight(on: names[0])
                range.shutGate()
                await ble.emulator.dropLink()
                // Out of range until the run has tried to reach it again.
                #expect(await eventually { range.refusals >= 1 })
                range.openGate()
            }
        }()
        async let rn2483Outages: Void = plugged[0].unplugTwice(at: [30, 75], name: names[1], log: log, wait: at)
        async let rui3Outages: Void = plugged[1].unplugTwice(at: [45, 90], name: names[2], log: log, wait: at)
        _ = try await (bleOutages, rn2483Outages, rui3Outages)
        try await at(120)
        // The drive is over; the last outage may still be settling on a loaded machine: every
        // node back from each of its outages (attempts after the one before did not say so), and
        // sending again.
        func returns(_ name: String) -> Int { log.all.count { if case .nodeBack(name, _) = $0 { true } else { false } } }
        #expect(await eventually(timeout: runProgressTimeout) {
            zip(names, [5, 2, 2]).allSatisfy { returns($0) == $1 && log.attemptsSinceLastReturn(of: $0) > 0 }
                && plugged.allSatisfy { $0.pluggedBack.allSatisfy { !$0.transmissions.isEmpty } }
        })
        #expect(await run.stop() == nil)

        let events = log.all
        let attempts = try store.records.attempts(session: run.session).map(\.attempt)
        for (name, outages) in zip(names, [5, 2, 2]) {
            let lost = events.indices.filter { if case .nodeLost(name, _) = events[$0] { true } else { false } }
            let back = events.indices.filter { if case .nodeBack(name, _) = events[$0] { true } else { false } }
            #expect(lost.count == outages && back.count == outages, "\(name): lost \(lost.count), back \(back.count), \(outages) outages")
            for (l, b) in zip(lost, back) {
                #expect(l < b, "\(name): back before lost")
                #expect(!events[l..<b].contains { if case .attempt(name, _, _) = $0 { true } else { false } }, "\(name): an attempt while it was away")
                #expect(events[b...].contains { if case .attempt(name, _, _) = $0 { true } else { false } }, "\(name): no attempt after a return")
                // The send in flight when the link went is stored failed, with why.
                let inFlight = events[..<l].last { if case .attempt(name, _, _) = $0 { true } else { false } }
                if case .attempt(_, let id, _)? = inFlight {
                    let attempt = attempts.first { $0.id == id }
                    #expect(attempt?.state == .failed && attempt?.failureReason?.isEmpty == false, "\(name): attempt \(id) in flight at a drop is \(String(describing: attempt?.state))")
                }
            }
            #expect(run.stats.reconnects[name] == outages)
        }
        // Each modem plugged back was joined by mtt, then sent.
        for modem in modems {
            for emulator in modem.pluggedBack {
                #expect(emulator.joinRequests >= 1, "\(modem.kind): mtt did not join it")
                #expect(emulator.transmissions.count >= 1, "\(modem.kind): not driven after it came back")
            }
            #expect(modem.pluggedBack.count == 2)
        }
        let status = try store.status()
        #expect(status.pending == 0, "\(status.pending) attempts left pending")
        #expect(attempts.allSatisfy { $0.state != .failed || $0.failureReason?.isEmpty == false })
        // What `mtt status` shows in another process: every node reachable, with its reconnects.
        #expect(status.nodes.map(\.node) == names)
        #expect(status.nodes.map(\.reconnects) == [5, 2, 2])
        #expect(status.nodes.allSatisfy { $0.state == .connected && $0.sessionEnded })
    }
}

/// An emulated USB modem behind a by-id style link, and the ones that replace it when it is
/// plugged back (kept alive: an emulator stops when it is released).
final class PluggedModem: Sendable {
    let kind: ModemKind
    let connector: ModemConnector
    private let linkPath: String
    private let current: Mutex<ModemEmulator>
    private let replacements = Mutex<[ModemEmulator]>([])

    init(kind: ModemKind, link: String) async throws {
        self.kind = kind
        linkPath = link
        let first = try ModemEmulator(kind: kind)
        first.configure { $0.airtime = 0.15 }
        current = Mutex(first)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: first.slavePath)
        connector = ModemConnector(spec: SerialNodeSpec(path: link, modem: kind), timeouts: ModemTimeouts(command: 1, transmission: 3, join: 3))
    }

    var pluggedBack: [ModemEmulator] { replacements.withLock { $0 } }

    /// At each drive second, with a send in flight: unplugged, and plugged back 5 s later.
    func unplugTwice(at seconds: [Double], name: String, log: CollectEventLog, wait: (Double) async throws -> Void) async throws {
        for second in seconds {
            try await wait(second)
            try await log.waitForSendInFlight(on: name)
            // In flight at the modem itself: the attempt is recorded before its `mac tx` reaches
            // the modem, and a busy machine unplugged a modem that had not heard it yet.
            let plugged = current.withLock { $0 }
            _ = await eventually(timeout: runProgressTimeout) { !plugged.transmissions.isEmpty }
            current.withLock { $0.unplug() }
            try FileManager.default.removeItem(atPath: linkPath)
            // Deliberate pacing: the modem stays out 5 s of the drive, as the script says.
            try await Task.sleep(for: .seconds(5 / TwoMinutesOnTheRoadTests.speed))
            let next = try ModemEmulator(kind: kind, joined: false, holdsKeys: true)
            next.configure { $0.airtime = 0.15 }
            current.withLock { $0 = next }
            replacements.withLock { $0.append(next) }
            try FileManager.default.createSymbolicLink(atPath: linkPath, withDestinationPath: next.slavePath)
        }
    }
}

extension CollectEventLog {
    /// Attempts on `node` since it last came back (or since the start).
    func attemptsSinceLastReturn(of node: String) -> Int {
        let events = all
        let from = events.lastIndex { if case .nodeBack(node, _) = $0 { true } else { false } } ?? -1
        return events[(from + 1)...].count { if case .attempt(node, _, _) = $0 { true } else { false } }
    }

    /// Waits until `node`, back from any outage and driven since, has a send in flight: its last
    /// event is an attempt with no result yet. As long as it takes: beside a second suite the
    /// node's return from the outage before (its back-off, its reconnect) took more than 15 s, and
    /// the next outage then met a node that was still away.
    func waitForSendInFlight(on node: String, within seconds: Double = 300) async throws {
        let inFlight = await eventually(timeout: seconds) {
            let mine = all.filter {
                switch $0 {
                case .attempt(node, _, _), .confirmed(node, _, _, _), .failed(node, _, _), .nodeLost(node, _), .nodeBack(node, _): true
                default: false
                }
            }
            if case .attempt? = mine.last, attemptsSinceLastReturn(of: node) > 0 { return true }
            return false
        }
        if inFlight { return }
        Issue.record("\(node): no send in flight within \(seconds) s")
    }
}
