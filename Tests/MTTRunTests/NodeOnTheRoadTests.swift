import Foundation
import MTTBluetooth
import MTTCore
import TestSupport
import Testing

/// A drive where the BLE node goes out of range again and again: active mode loses it, stores the
/// attempt in flight as failed, makes none while it is away, reaches it again and goes on.
@Suite("A BLE node on the road")
struct NodeOnTheRoadTests {
    @Test func everyOutageIsOneLossAndOneReturnAndTheAttemptsGoOn() async throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.file("road.sqlite"))
        let clock = ScaledClock(scale: 10)
        let session = try store.sessions.startSession(mode: .active, at: clock.now())
        let fake = try await EmulatedNode.start(sendTimeout: 2)
        await fake.emulator.configure { $0.airtime = 0.01 }
        let policy = CollectEventLog.brisk
        let log = CollectEventLog()
        let range = GatedConnector(fake)
        let collector = ActiveCollector(
            store: store, session: session, nodes: [ActiveNode(link: fake.node, devEUI: "0004A30B001C0501", connector: range)],
            fixes: MovingFixSource(clock: clock), uplinks: nil, policy: policy, clock: clock,
            reconnectBackoff: Backoff(initial: 0.05, maximum: 0.4, jitter: 0.2), emit: log.emit)
        let run = Task { try await collector.run() }

        // Three outages: the link drops and the node is out of range until the run has tried to reach
        // it twice. Each starts once the node is back from the one before and two sends went through.
        func confirmedSinceLastReturn() -> Int {
            let seen = log.all
            let start = seen.lastIndex { if case .nodeBack = $0 { true } else { false } } ?? -1
            return seen[(start + 1)...].filter { if case .confirmed = $0 { true } else { false } }.count
        }
        for outage in 1...3 {
            #expect(await eventually { confirmedSinceLastReturn() >= 2 }, "no attempts before outage \(outage)")
            range.shutGate()
            await fake.emulator.dropLink()
            #expect(await eventually { log.losses >= outage && range.refusals >= 2 }, "outage \(outage) was not noticed")
            range.openGate()
            #expect(await eventually { log.returns >= outage }, "the node did not come back from outage \(outage)")
        }
        #expect(await eventually { confirmedSinceLastReturn() >= 2 })
        run.cancel()
        _ = await run.result

        let seen = log.all
        let lost = seen.indices.filter { if case .nodeLost = seen[$0] { true } else { false } }
        let back = seen.indices.filter { if case .nodeBack = seen[$0] { true } else { false } }
        #expect(lost.count == 3 && back.count == 3, "lost \(lost.count), back \(back.count)")
        for (l, b) in zip(lost, back) {
            #expect(l < b)
            // No attempt while the node is away; attempts again after it is back.
            #expect(!seen[l..<b].contains { if case .attempt = $0 { true } else { false } })
        }
        for b in back {
            #expect(seen[b...].contains { if case .attempt = $0 { true } else { false } }, "no attempt after a return")
        }
        let status = try store.status()
        #expect(status.pending == 0, "an attempt in flight at a drop was left pending")
        #expect(status.confirmed >= 8, "\(status.confirmed) confirmed")
        // Attempts failed by a drop say so.
        let failedByDrop = try store.records.attempts(session: session).filter { $0.attempt.state == .failed }
        #expect(failedByDrop.allSatisfy { $0.attempt.failureReason?.isEmpty == false })
    }
}

/// The collection run itself, as any front end drives it: MTTCore's `CollectionRun` with the
/// emulated node, two followers of its events, its stats, a stop.
@Suite("A collection run")
struct CollectionRunTests {
    @Test func followersSeeTheSameEventsStatsCountThemAndStopClosesTheSession() async throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.file("run.sqlite"))
        let clock = ScaledClock(scale: 10)
        let fake = try await EmulatedNode.start(sendTimeout: 2)
        await fake.emulator.configure { $0.airtime = 0.01 }
        let policy = CollectEventLog.brisk
        let run = try CollectionRun(
            store: store,
            ports: .init(fixes: MovingFixSource(clock: clock), nodes: [ActiveNode(link: fake.node, devEUI: "0004A30B001C0501", connector: fake)]),
            settings: .init(mode: .active, policy: policy, interval: 5, clock: clock, description: SessionDescription(nodes: "fake")))
        let followers = (0..<2).map { _ in
            let events = run.events()
            return Task { () -> Int in
                var attempts = 0
                for await event in events { if case .attempt = event { attempts += 1 } }
                return attempts
            }
        }
        run.start()
        #expect(await eventually { run.stats.confirmed >= 4 })
        let failure = await run.stop()
        #expect(failure == nil)
        var seen: [Int] = []
        for follower in followers { seen.append(await follower.value) }
        let stats = run.stats
        #expect(stats.confirmed >= 4 && stats.attempts >= stats.confirmed)
        #expect(seen == [stats.attempts, stats.attempts], "followers saw \(seen), stats say \(stats.attempts)")
        let status = try store.status()
        #expect(status.attempts == stats.attempts && status.pending == 0)
        #expect(try store.sessions.session(run.session)?.endedAt != nil)
    }
}
