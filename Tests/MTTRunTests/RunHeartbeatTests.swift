import Foundation
import MTTCore
import Synchronization
import TestSupport
import Testing

/// A node whose send never returns: the test's hook for a run whose loop hangs.
final class HangingNode: NodeLink, @unchecked Sendable {
    let name = "hanging:1"
    let hang = Atomic<Bool>(false)

    func info() async throws -> NodeInfo {
        NodeInfo(model: "test", devEUI: "0004A30B001C0599", devAddr: "260B0001", spreadingFactor: 7, isJoined: true)
    }

    func send(_ payload: [UInt8]) async throws -> SendResult {
        while hang.load(ordering: .relaxed) { try await Task.sleep(for: .milliseconds(50)) }
        return SendResult(sequence: nil, outcome: .confirmed(frameCounter: nil))
    }

    func setSpreadingFactor(_ sf: Int) async throws {}

    func close() async {}
}

/// The run's heartbeat, which a service's watchdog follows: alive while its loops go round, not
/// while one hangs, alive again after.
@Suite("A run's heartbeat")
struct RunHeartbeatTests {
    @Test func aHangingLoopStopsTheHeartbeat() async throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.file("beat.sqlite"))
        let clock = CollectClock(scale: 10)
        let node = HangingNode()
        let run = try CollectionRun(
            store: store, ports: .init(fixes: MovingFixSource(clock: clock), nodes: [ActiveNode(link: node, devEUI: "0004A30B001C0599")]),
            settings: .init(mode: .active, policy: CollectEventLog.brisk, interval: 5, clock: clock))
        run.start()
        try await Task.sleep(for: .seconds(1))
        #expect(run.isResponsive(within: 1.5))
        node.hang.store(true, ordering: .relaxed)
        try await Task.sleep(for: .seconds(3))
        #expect(!run.isResponsive(within: 1.5), "a hung loop still looked alive")
        node.hang.store(false, ordering: .relaxed)
        try await Task.sleep(for: .seconds(1.5))
        #expect(run.isResponsive(within: 1.5))
        _ = await run.stop()
    }
}
