import Foundation
import MTTCore
import MTTSerial
import TestSupport
import Testing

/// A modem that starts not joined (as every RN2483 does after power-up): active mode joins it by
/// itself, trying again after a denied join within LoRaWAN's back-off, then sends as usual.
@Suite("A modem that is not joined")
struct ModemOnTheRoadTests {
    @Test(arguments: [ModemKind.rn2483, .rui3])
    func activeModeJoinsItAndThenSends(kind: ModemKind) async throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.file("join.sqlite"))
        let emulator = try ModemEmulator(kind: kind, joined: false)
        emulator.configure {
            $0.airtime = 0.02
            $0.deniedJoins = 2
        }
        let link = try await ModemLinks.open(SerialNodeSpec(path: emulator.slavePath, modem: kind))
        // The modem holds its keys (written once, as `mtt node provision` does); it is not joined.
        try await link.provisionOTAA(devEUI: "0004A30B001C0530", joinEUI: "70B3D57ED0000000", appKey: "2B7E151628AED2A6ABF7158809CF4F3C")
        #expect(try await link.info().isJoined == false)

        let clock = ScaledClock(scale: 10)
        let session = try store.sessions.startSession(mode: .active, at: clock.now())
        let policy = CollectEventLog.brisk
        let log = CollectEventLog()
        let collector = ActiveCollector(
            store: store, session: session, nodes: [ActiveNode(link: link, devEUI: "0004A30B001C0530")],
            fixes: MovingFixSource(clock: clock), uplinks: nil, policy: policy, clock: clock, emit: log.emit)
        let run = Task { try await collector.run() }
        // Until three are confirmed (some 10 s here), as long as it takes: the joins and the counts
        // are what is tested. A clean-clone run beside the Bluetooth VM and PostgreSQL got two in
        // 20 s, and one of two suites at once two in 60 s.
        try await eventually(timeout: runProgressTimeout) { try store.status().confirmed >= 3 }
        run.cancel()
        _ = await run.result

        // Two denied join-requests, then the accepted one; one loss and one return for the outage.
        #expect(emulator.joinRequests == 3)
        #expect(log.losses == 1 && log.returns == 1)
        let status = try store.status()
        #expect(status.confirmed >= 3 && status.pending == 0, "\(status)")
        // Only the first attempt met the unjoined modem.
        #expect(status.failed == 1)
    }
}

/// A USB modem unplugged on the road and plugged back: it comes back on another pseudo-terminal
/// behind the same by-id style link, not joined, holding its keys. Active mode reaches it through
/// the link, joins it, and sends again; the outage is one loss and one return.
@Suite("A modem unplugged and plugged back")
struct ModemReplugTests {
    @Test(arguments: [ModemKind.rn2483, .rui3])
    func itIsReopenedByItsLinkJoinedAndDrivenAgain(kind: ModemKind) async throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.file("replug.sqlite"))
        let byID = dir.file("usb-Microchip_RN2483-if00")
        let first = try ModemEmulator(kind: kind)
        first.configure { $0.airtime = 0.02 }
        try FileManager.default.createSymbolicLink(atPath: byID, withDestinationPath: first.slavePath)
        let connector = ModemConnector(spec: SerialNodeSpec(path: byID, modem: kind), timeouts: ModemTimeouts(command: 1, transmission: 3, join: 3))
        let link = try await connector.connect()

        let clock = ScaledClock(scale: 10)
        let session = try store.sessions.startSession(mode: .active, at: clock.now())
        let policy = CollectEventLog.brisk
        let log = CollectEventLog()
        let collector = ActiveCollector(
            store: store, session: session,
            nodes: [ActiveNode(link: link, devEUI: try await link.info().devEUI, connector: connector)],
            fixes: MovingFixSource(clock: clock), uplinks: nil, policy: policy, clock: clock,
            reconnectBackoff: Backoff(initial: 0.1, maximum: 0.5, jitter: 0.2), emit: log.emit)
        let run = Task { try await collector.run() }

        // Driven first as it is, before it is unplugged.
        // Waits as long as it takes (a suite beside another is slow): the count is what is tested.
        try await eventually(timeout: runProgressTimeout) { try store.status().confirmed >= 2 }
        let beforeUnplug = try store.status().confirmed
        first.unplug()
        try FileManager.default.removeItem(atPath: byID)
        // Plugged back once mtt has noticed the loss, as a person would be seconds later.
        #expect(await eventually(timeout: runProgressTimeout) { log.losses > 0 }, "the loss was not noticed")
        let second = try ModemEmulator(kind: kind, joined: false, holdsKeys: true)
        second.configure { $0.airtime = 0.02 }
        try FileManager.default.createSymbolicLink(atPath: byID, withDestinationPath: second.slavePath)
        await eventually(timeout: runProgressTimeout) { second.transmissions.count >= 3 }
        run.cancel()
        _ = await run.result

        #expect(beforeUnplug >= 2)
        #expect(second.transmissions.count >= 3, "the modem was not driven after it came back")
        #expect(second.joinRequests >= 1, "mtt did not join the modem")
        #expect(log.losses == 1 && log.returns == 1)
        #expect(try store.status().pending == 0)
    }
}
