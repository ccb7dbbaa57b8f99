import Foundation
import MTTCore
import MTTSerial
import TestSupport
import Testing

/// `--linkcheck`: each modem sends a LinkCheckReq with its uplinks, and the answer (or its absence)
/// says whether the network heard it, with no access to the network's MQTT at all.
@Suite("LinkCheck with no network access")
struct LinkCheckTests {
    @Test func rui3LinkCheckEventsAreReadWithCommasOrWithColons() {
        // SPEC §10.3: the documentation's commas, newer firmware's colons.
        #expect(RUI3Link.linkCheck("+EVT:LINKCHECK:0,20,3,-95,6") == .answered(gateways: 3, margin: 20))
        #expect(RUI3Link.linkCheck("+EVT:LINKCHECK:0:20:3:-95:6") == .answered(gateways: 3, margin: 20))
        #expect(RUI3Link.linkCheck("+EVT:LINKCHECK:1,0,0,0,0") == .unanswered)
        // A success that counts no gateway, or the reserved margin, is no answer.
        #expect(RUI3Link.linkCheck("+EVT:LINKCHECK:0:255:2:-95:6") == .unanswered)
        #expect(RUI3Link.linkCheck("+EVT:LINKCHECK:0:12:0:-95:6") == .unanswered)
        #expect(RUI3Link.linkCheck("+EVT:LINKCHECK:0:12") == nil)
        #expect(RUI3Link.linkCheck("+EVT:TX_DONE") == nil)
    }

    @Test(arguments: ModemKind.allCases)
    func eachAttemptIsHeardOrNotAsTheModemWasAnsweredAndTheCellsSaySo(kind: ModemKind) async throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.file("linkcheck.sqlite"))
        let emulator = try ModemEmulator(kind: kind)
        emulator.configure { $0.airtime = 0.02 }
        // A lost RUI3 answer is no event at all: mtt waits a second for it, never longer.
        let link = try await ModemLinks.open(
            SerialNodeSpec(path: emulator.slavePath, modem: kind), timeouts: ModemTimeouts(command: 1, transmission: 3, join: 3, linkCheck: 1))
        // The route (MovingFixSource) goes north from here: a gateway near it and one far east.
        let start = GeoPoint(latitude: 52.09, longitude: 5.12)
        let network = SimulatedNetwork.placed(at: [start.offset(metres: 1_500, bearing: 0), start.offset(metres: 9_000, bearing: 90)])
        // A network mtt has no access to: what it hears goes nowhere, its link checks answer.
        let feed = SimulatedUplinkFeed(network: network, forward: { _ in })
        await feed.hear(emulator, node: link.name, info: try await link.info())

        let clock = ScaledClock(scale: 10)
        let session = try store.sessions.startSession(mode: .active, at: clock.now())
        let collector = ActiveCollector(
            store: store, session: session, nodes: [ActiveNode(link: link, devEUI: try await link.info().devEUI)],
            fixes: MovingFixSource(clock: clock), uplinks: nil, policy: CollectEventLog.brisk, checkLinks: true, clock: clock,
            emit: CollectEventLog().emit)
        let run = Task { try await collector.run() }
        // Answered first; then every answer is lost on its way back.
        try await eventually(timeout: 120) { try store.status().confirmed >= 4 }
        emulator.configure { $0.lostLinkChecks = 1 }
        let lostFrom = emulator.transmissions.count
        try await eventually(timeout: 120) { try emulator.transmissions.count >= lostFrom + 4 && store.status().confirmed >= lostFrom + 3 }
        run.cancel()
        _ = await run.result

        // What the modem was told, send by send, against what mtt stored (read as `mtt export`
        // does), in the order sent (the export's time order): RUI3 reports no frame counter of a
        // session it did not join itself.
        var sent: [ExportRecord] = []
        try store.records.forEachExportRecord(ExportFilter(session: session)) { if $0.status != .failed { sent.append($0) } }
        var answered: [MapTile: (gateways: Int, margin: Int)] = [:]
        var unanswered = Set<MapTile>()
        for (record, transmission) in zip(sent, emulator.transmissions) {
            let tile = MapTile(containing: GeoPoint(latitude: record.latitude, longitude: record.longitude))
            switch transmission.linkCheck {
            case .answered(let gateways, let margin)?:
                #expect(record.status == .heardByLinkCheck && record.gateways == gateways && record.linkCheckMargin == margin, "\(record.key)")
                let best = answered[tile]
                answered[tile] = (max(best?.gateways ?? 0, gateways), max(best?.margin ?? 0, margin))
            case .unanswered?:
                #expect(record.status == .lost && record.linkCheckMargin == nil, "\(record.key)")
                unanswered.insert(tile)
            case nil:
                Issue.record("\(record.key) went out without a link check")
            }
        }
        #expect(answered.count >= 1 && unanswered.count >= 1, "answered in \(answered.count) cells, unanswered in \(unanswered.count)")
        let status = try store.status()
        // An answer that never came made no attempt fail, and no send wait without end (the one
        // in flight when the run was stopped is failed so).
        #expect(status.failed <= 1 && status.pending == 0, "\(status)")
        #expect(status.linkChecks == status.confirmed)

        // Each cell: heard by LinkCheck (with the most gateways and best margin answered there)
        // where any check was answered, else not heard; none left unknown.
        for cell in try store.coverage.coverageCells(CoverageFilter(window: ExportFilter(session: session))) {
            if let best = answered[cell.tile] {
                #expect(cell.state == .heardByLinkCheck && cell.linkChecks?.gateways == best.gateways && cell.linkChecks?.margin == best.margin)
            } else if unanswered.contains(cell.tile) {
                #expect(cell.state == .notHeard && cell.linkChecks?.answered == 0)
            } else {
                Issue.record("cell \(cell.tile) has no attempt: \(cell.state)")
            }
        }
        // A rebuild from the attempts makes the same counts as the triggers kept.
        let kept = try store.coverage.coverageTables()
        try store.coverage.rebuildCoverage()
        #expect(try store.coverage.coverageTables() == kept)
    }
}
