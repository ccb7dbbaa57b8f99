import Foundation
import MTTCore
import TestSupport
import Testing

/// Listener mode against a real broker, with the messages real networks send.
@Suite("Listener mode with real-world messages")
struct ListenerHardeningTests {
    static let topic = "v3/mtt-mapper@ttn/devices/tracker-7/up"

    static func uplink(_ fCnt: Int, at time: Timestamp, simulated: Bool = false) -> String {
        #"{"end_device_ids":{"device_id":"tracker-7","dev_eui":"0004A30B001C0530"},"received_at":"\#(RFC3339.string(time, fractionDigits: 3))",\#(simulated ? #""simulated":true,"# : "")"uplink_message":{"f_port":1,"f_cnt":\#(fCnt),"frm_payload":"AQ==","rx_metadata":[{"gateway_ids":{"gateway_id":"gw"},"rssi":-100}],"settings":{"data_rate":{"lora":{"bandwidth":125000,"spreading_factor":7}},"frequency":"868100000"}}}"#
    }

    func listener(_ mtt: MTTCommand, broker: MosquittoBroker, extra: [String] = []) throws -> ChildProcess.Running {
        try mtt.start([
            "collect", "--mode", "listener", "--gps", "fixed:52.09,5.12", "--mqtt-url", "mqtt://127.0.0.1:\(broker.port)",
            "--mqtt-user", "mtt-mapper@ttn", "--device", "tracker-7", "--db", mtt.database,
        ] + extra)
    }

    @Test func simulatedUplinksAreSkippedWithOneLineAndCounted() async throws {
        let mtt = MTTCommand()
        let broker = try await MosquittoBroker.start()
        let run = try listener(mtt, broker: broker)
        defer { run.stop() }
        #expect(await run.waitForOutput(timeout: 30) { $0.contains("network connected") }, "\(run.stderr)")
        try await broker.publish(topic: Self.topic, lines: [
            Self.uplink(1, at: .now(), simulated: true), Self.uplink(2, at: .now(), simulated: true), Self.uplink(3, at: .now()),
        ])
        #expect(await run.waitForOutput(timeout: 20) { $0.contains("heard tracker-7 f_cnt 3") })
        run.signal(SIGTERM)
        #expect(await run.wait(timeout: 20))
        #expect(run.stderr.components(separatedBy: "skipping a simulated uplink").count == 2, "\(run.stderr)")
        #expect(try Store(path: mtt.database, access: .readOnly).status().uplinks == 1)
    }

    /// Uplinks dated after the last fix wait for the track; a stop must still give each its sample
    /// or its reason, every time.
    @Test func aStopStoresEveryWaitingUplinkWithItsSampleOrReason() async throws {
        let broker = try await MosquittoBroker.start()
        for round in 1...5 {
            let mtt = MTTCommand()
            let run = try listener(mtt, broker: broker)
            defer { run.stop() }
            #expect(await run.waitForOutput(timeout: 30) { $0.contains("network connected") }, "\(run.stderr)")
            // Received "in 60 s": the track cannot reach them before the run ends.
            let later = Timestamp.now().adding(seconds: 60)
            try await broker.publish(topic: Self.topic, lines: (1...6).map { Self.uplink($0, at: later) })
            // Stopped once all six are in (a fixed --duration ended one run before a loaded machine
            // had delivered them), while their samples still wait for the track.
            #expect(await run.waitForOutput(timeout: 30) { $0.contains("heard tracker-7 f_cnt 6") }, "round \(round): \(run.stdout)")
            run.signal(SIGTERM)
            #expect(await run.wait(timeout: 30))
            #expect(run.result.status == 0, "round \(round): \(run.stderr)")
            let store = try Store(path: mtt.database, access: .readOnly)
            let samples = try store.records.samples(session: 1)
            #expect(try store.status().uplinks == 6, "round \(round)")
            #expect(samples.count == 6, "round \(round): \(samples.count) samples for 6 uplinks")
            #expect(samples.allSatisfy { $0.position != nil || $0.reason != nil })
        }
    }
}
