import Foundation
import MTTCore
import TestSupport
import Testing

/// Issue 32: when the store cannot keep up, the backlog stays in the broker (TCP holds it back),
/// not in mtt's memory, and nothing is lost once the store takes records again. The store is held
/// back for real: another program keeps the database's write lock, as a `sqlite3` shell left in a
/// transaction does.
@Suite("Backpressure from the store to the broker")
struct IngestBackpressureTests {
    static let topic = ListenerHardeningTests.topic
    static let backlog = 200_000

    @Test func aLockedDatabaseLeavesTheBacklogInTheBrokerAndLosesNothing() async throws {
        let mtt = MTTCommand()
        let broker = try await MosquittoBroker.start()
        let run = try ListenerHardeningTests().listener(mtt, broker: broker)
        defer { run.stop() }
        #expect(await run.waitForOutput(timeout: 30) { $0.contains("network connected") }, "\(run.stderr)")
        let time = Timestamp.now().adding(seconds: -3600)
        // A first burst, so that mtt's resident memory already has what a burst brings in.
        try await broker.publish(topic: Self.topic, lines: (1...2_000).map { ListenerHardeningTests.uplink($0, at: time) })
        #expect(try await Self.waitForStored(2_000, in: mtt.database, timeout: 60))
        let mttBefore = try Self.residentMB(run.pid)
        let brokerBefore = try Self.residentMB(try #require(broker.pid))

        let holder = try ChildProcess.Running("/usr/bin/python3", ["-c", Self.lockHolder, mtt.database], environment: [:])
        defer { holder.stop() }
        #expect(await holder.waitForOutput(timeout: 20) { $0.contains("locked") }, "\(holder.stderr)")
        try await broker.publish(topic: Self.topic, lines: (2_001...(2_000 + Self.backlog)).map { ListenerHardeningTests.uplink($0, at: time) })
        // SQLite waits 10 s for the lock before mtt hears it is busy.
        #expect(await run.waitForOutput(timeout: 60) { $0.contains("database busy") }, "\(run.stdout)\n\(run.stderr)")
        var mttPeak = 0.0
        for _ in 0..<10 {
            mttPeak = max(mttPeak, try Self.residentMB(run.pid))
            // A measurement: ten samples of the resident size, 300 ms apart.
            try await Task.sleep(for: .milliseconds(300))
        }
        let brokerHolding = try Self.residentMB(try #require(broker.pid))
        let storedWhileLocked = try Self.storedCount(mtt.database)
        // 200,000 messages are some 90 MB: the broker has them, mtt at most what it had in hand
        // when the lock came (a few thousand messages: its credits, its queue, one batch).
        #expect(brokerHolding - brokerBefore > 50, "the broker grew \(brokerHolding - brokerBefore) MB")
        #expect(mttPeak - mttBefore < 20, "mtt grew from \(mttBefore) to \(mttPeak) MB with the backlog waiting")
        #expect(storedWhileLocked == 2_000)

        holder.stop()
        // As long as it takes: beside another suite on two cores 300 s were not enough.
        #expect(try await Self.waitForStored(2_000 + Self.backlog, in: mtt.database, timeout: 1200), "\(run.stderr)")
        #expect(await run.waitForOutput(timeout: 30) { $0.contains("database writable again after") }, "\(run.stdout)")
        run.signal(SIGINT)
        #expect(await run.wait(timeout: 60))
        #expect(run.result.status == 0, "\(run.stderr)")
        #expect(try Self.frameCounters(mtt.database) == Array(1...(2_000 + Self.backlog)), "every uplink once, none lost")
    }

    /// Keeps the database's write lock until killed.
    static let lockHolder = """
        import sqlite3, sys, time
        db = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=30)
        db.execute("BEGIN IMMEDIATE")
        print("locked", flush=True)
        time.sleep(3600)
        """

    static func waitForStored(_ count: Int, in path: String, timeout: Double) async throws -> Bool {
        try await eventually(timeout: timeout) { try storedCount(path) >= count }
    }

    static func storedCount(_ path: String) throws -> Int {
        try Store(path: path, access: .readOnly).status().uplinks
    }

    /// Every stored uplink's frame counter, in order, as another program reads the file.
    static func frameCounters(_ path: String) throws -> [Int] {
        let result = try ChildProcess.runBlocking("/usr/bin/python3", ["-c", """
            import sqlite3, sys
            for (f,) in sqlite3.connect(sys.argv[1]).execute("SELECT f_cnt FROM uplinks ORDER BY f_cnt"): print(f)
            """, path])
        return result.stdout.split(separator: "\n").compactMap { Int($0) }
    }

    /// The process's resident memory now, from /proc, in MB.
    static func residentMB(_ pid: Int32) throws -> Double {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        return Double(line.split(separator: " ", omittingEmptySubsequences: true)[1])! / 1024
    }
}
