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
        // A test double's own pacing: a node that hangs while told to.
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
        let clock = ScaledClock(scale: 10)
        let node = HangingNode()
        let run = try CollectionRun(
            store: store, ports: .init(fixes: MovingFixSource(clock: clock), nodes: [ActiveNode(link: node, devEUI: "0004A30B001C0599")]),
            settings: .init(mode: .active, policy: CollectEventLog.brisk, interval: 5, clock: clock))
        run.start()
        /// Whether the run's responsiveness becomes `wanted` (a loaded machine is slow: a suite
        /// beside another saw no send in 30 s).
        func becomes(_ wanted: Bool) async -> Bool {
            await eventually(timeout: runProgressTimeout) { run.isResponsive(within: 1.5) == wanted }
        }
        #expect(await eventually(timeout: runProgressTimeout) { run.stats.confirmed >= 1 }, "no send went through")
        #expect(await becomes(true), "a running loop did not look alive")
        node.hang.store(true, ordering: .relaxed)
        #expect(await becomes(false), "a hung loop still looked alive")
        // Still hung while the GPS goes on fixing (five more fixes): it stays so.
        let fixTime = run.stats.lastFix?.time
        #expect(await eventually(timeout: runProgressTimeout) { (run.stats.lastFix?.time).map { t in fixTime.map { t.nanosecondsSinceEpoch - $0.nanosecondsSinceEpoch >= 5_000_000_000 } ?? true } ?? false })
        #expect(!run.isResponsive(within: 1.5))
        node.hang.store(false, ordering: .relaxed)
        #expect(await becomes(true), "the loop did not come back")
        _ = await run.stop()
    }
}
