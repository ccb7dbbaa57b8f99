import Foundation
import MTTCore
import TestSupport
import Testing

/// Faults in the field: the network server's broker goes away, the disk fills up. Nothing already
/// reported may be lost, and mtt must say what happened.
@Suite("Faults during collection")
struct FaultTests {
    let mtt = MTTCommand()

    static func uplink(_ fCnt: Int) -> String {
        let now = RFC3339.string(.now(), fractionDigits: 3)
        return #"{"end_device_ids":{"device_id":"tracker-7","dev_eui":"0004A30B001C0530"},"received_at":"\#(now)","uplink_message":{"f_port":1,"f_cnt":\#(fCnt),"frm_payload":"AQ==","rx_metadata":[{"gateway_ids":{"gateway_id":"gw"},"rssi":-100,"snr":2.5}],"settings":{"data_rate":{"lora":{"bandwidth":125000,"spreading_factor":7}},"frequency":"868100000"}}}"#
    }

    func storedFrameCounters() throws -> [Int] {
        guard FileManager.default.fileExists(atPath: mtt.database) else { return [] }
        let store = try Store(path: mtt.database)
        let session = try store.status().sessions
        return try (1...max(1, session)).flatMap { try store.records.samples(session: Int64($0)) }.compactMap { sample -> Int? in
            guard case .uplink(let id) = sample.subject else { return nil }
            return (try? store.records.uplink(id))?.flatMap { $0.fCnt.map(Int.init) } ?? nil
        }.sorted()
    }

    func waitForStored(_ count: Int, timeout: Double = 20) async throws -> Bool {
        try await eventually(timeout: timeout) { try storedFrameCounters().count >= count }
    }

    @Test func theBrokerKilledAndRestartedDuringAListenerRunLosesNothing() async throws {
        let broker = try await MosquittoBroker.start()
        let topic = "v3/mtt-mapper@ttn/devices/tracker-7/up"
        let run = try mtt.start([
            "collect", "--mode", "listener", "--gps", "fixed:52.09,5.12", "--mqtt-url", "mqtt://127.0.0.1:\(broker.port)",
            "--mqtt-user", "mtt-mapper@ttn", "--device", "tracker-7", "--db", mtt.database,
        ])
        defer { run.kill() }
        #expect(await run.waitForOutput(timeout: 30) { $0.contains("network connected") }, "\(run.stderr)")
        try await broker.publish(topic: topic, lines: (1...40).map(Self.uplink))
        #expect(try await waitForStored(40))

        broker.stop()
        #expect(await run.waitForOutput(timeout: 30) { $0.contains("network lost") })
        try await broker.restart()
        #expect(await run.waitForOutput(timeout: 30) { $0.components(separatedBy: "network connected").count == 3 })
        try await broker.publish(topic: topic, lines: (41...80).map(Self.uplink))
        #expect(try await waitForStored(80))

        run.signal(SIGINT)
        #expect(await run.wait(timeout: 30))
        #expect(run.result.status == 0, "\(run.stderr)")
        #expect(try storedFrameCounters() == Array(1...80))
        #expect(try Store(path: mtt.database).integrityCheck() == "ok")
    }

    @Test func aFullDiskStopsCollectionWithAClearMessageAndKeepsWhatWasReported() async throws {
        // A file-size limit (ulimit -f, with SIGXFSZ ignored) stands in for a full disk: writes past
        // 2.5 MB fail the way they do on a full file system (1.5 MB before the coverage tables
        // took their room). At 20×, not 50×: fixes come by the simulated clock, sends at the pace
        // of the node's real round trips, and under two suites at once only two sends made it
        // before the track filled the file at 50×.
        let command = [BuiltProducts.path("mtt"), "collect", "--mode", "active", "--node", "fake", "--gps", "fake",
                       "--network", "fake", "--speed", "20", "--duration", "90s", "--db", mtt.database]
            .map { "'\($0)'" }.joined(separator: " ")
        let result = try await ChildProcess.run(
            "/bin/sh", ["-c", "trap '' XFSZ; ulimit -f 2500; exec \(command)"], environment: mtt.environment, timeout: 120)
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.last?.hasPrefix("mtt: collection stopped: database error: cannot write the database file: the disk is full or the file may not grow") == true, "\(result.stderr)")

        let store = try Store(path: mtt.database)
        #expect(try store.integrityCheck() == "ok")
        // Every attempt that was reported sent is in the database, confirmed.
        let reported = result.stdout.split(separator: "\n").compactMap { line -> Int64? in
            guard let range = line.range(of: "attempt "), line.contains(" sent by ") else { return nil }
            return Int64(line[range.upperBound...].prefix { $0.isNumber })
        }
        #expect(reported.count >= 3, "too few attempts before the disk filled: \(result.stdout)")
        for id in reported {
            #expect(try store.records.attempt(id)?.state == .confirmed, "attempt \(id)")
        }
    }
}
