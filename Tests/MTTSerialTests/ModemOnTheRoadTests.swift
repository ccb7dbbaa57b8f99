import Foundation
import MTTCore
import MTTSerial
import Synchronization
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
        emulator.behave {
            $0.airtime = 0.02
            $0.deniedJoins = 2
        }
        let link = try await ModemLinks.open(SerialNodeSpec(path: emulator.slavePath, modem: kind))
        // The modem holds its keys (written once, as `mtt node provision` does); it is not joined.
        try await link.provisionOTAA(devEUI: "0004A30B001C0530", joinEUI: "70B3D57ED0000000", appKey: "2B7E151628AED2A6ABF7158809CF4F3C")
        #expect(try await link.info().isJoined == false)

        let clock = CollectClock(scale: 10)
        let session = try store.startSession(mode: .active, at: clock.now())
        var policy = SendPolicy()
        policy.minimumInterval = 2
        policy.minimumDistance = 5
        let events = Mutex<[CollectEvent]>([])
        let collector = ActiveCollector(
            store: store, session: session, nodes: [ActiveNode(link: link, devEUI: "0004A30B001C0530")],
            fixes: MovingFixSource(clock: clock), uplinks: nil, policy: policy, clock: clock) { event in events.withLock { $0.append(event) } }
        let run = Task { try await collector.run() }
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline, try store.status().confirmed < 3 {
            try await Task.sleep(for: .milliseconds(100))
        }
        run.cancel()
        _ = await run.result

        // Two denied join-requests, then the accepted one; one loss and one return for the outage.
        #expect(emulator.currentBehaviour.joinRequests == 3)
        let seen = events.withLock { $0 }
        #expect(seen.filter { if case .nodeLost = $0 { true } else { false } }.count == 1)
        #expect(seen.filter { if case .nodeBack = $0 { true } else { false } }.count == 1)
        let status = try store.status()
        #expect(status.confirmed >= 3 && status.pending == 0, "\(status)")
        // Only the first attempt met the unjoined modem.
        #expect(status.failed == 1)
    }
}
