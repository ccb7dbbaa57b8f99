import Foundation
import MTTCore
import TestSupport
import Testing

/// Issue 43: a home Pi that hears trackers through The Things Stack places their uplinks where the
/// devices said, with no GPS of its own: through a real mosquitto, as TTS publishes them.
@Suite("Trackers: listener with --gps payload")
struct TrackerListenerTests {
    static let user = "mtt-trackers@ttn"

    static func message(device: String, fCnt: Int, fPort: Int = 1, bytes: [UInt8] = [0x01], decoded: String? = nil, at time: Timestamp) -> String {
        let payload = Data(bytes).base64EncodedString()
        let decodedField = decoded.map { #""decoded_payload":\#($0),"# } ?? ""
        return #"{"end_device_ids":{"device_id":"\#(device)","dev_eui":"70B3D57ED00000\#(String(format: "%02X", fCnt))"},"received_at":"\#(RFC3339.string(time, fractionDigits: 3))","uplink_message":{"f_port":\#(fPort),"f_cnt":\#(fCnt),"frm_payload":"\#(payload)",\#(decodedField)"rx_metadata":[{"gateway_ids":{"gateway_id":"gw-amsterdam"},"rssi":-108,"snr":-2.5,"time":"\#(RFC3339.string(time, fractionDigits: 3))"}],"settings":{"data_rate":{"lora":{"bandwidth":125000,"spreading_factor":9}},"frequency":"868100000"}}}"#
    }

    static func topic(_ device: String) -> String { "v3/\(user)/devices/\(device)/up" }

    @Test func devicesOwnPositionsArePlacedAndTheRestSayWhy() async throws {
        let mtt = MTTCommand()
        let broker = try await MosquittoBroker.start()
        let run = try mtt.start([
            "collect", "--mode", "listener", "--gps", "payload", "--mqtt-url", "mqtt://127.0.0.1:\(broker.port)",
            "--mqtt-user", Self.user, "--device", "+", "--codec", "WIO-1=fieldtester", "--db", mtt.database,
        ])
        defer { run.stop() }
        #expect(await run.waitForOutput(timeout: 30) { $0.contains("network connected") }, "\(run.stderr)")
        let time = Timestamp.now().adding(seconds: -60)
        try await broker.publish(topic: Self.topic("tbeam-1"), lines: [
            Self.message(device: "tbeam-1", fCnt: 1, decoded: #"{"latitude":52.3654939,"longitude":4.8884979,"altitude":21,"hdop":1.1,"sats":8}"#, at: time),
            Self.message(device: "tbeam-1", fCnt: 2, decoded: #"{"latitude":"52.37","longitude":"4.89","sats":2}"#, at: time.adding(seconds: 10)),
        ])
        try await broker.publish(topic: Self.topic("wio-1"), lines: [
            Self.message(device: "wio-1", fCnt: 3, bytes: Hex.bytes("1ECDAF810663047E0C08")!, at: time.adding(seconds: 20)),
        ])
        try await broker.publish(topic: Self.topic("sensor-3"), lines: [
            Self.message(device: "sensor-3", fCnt: 4, bytes: [0x17, 0x2A], at: time.adding(seconds: 30)),
        ])
        #expect(await run.waitForOutput(timeout: 60) { $0.contains("heard sensor-3 f_cnt 4") }, "\(run.stdout)\n\(run.stderr)")
        run.signal(SIGTERM)
        #expect(await run.wait(timeout: 30))
        #expect(run.result.status == 0, "\(run.stderr)")

        let store = try Store(path: mtt.database, access: .readOnly)
        let samples = try store.records.samples(session: 1).sorted { $0.time < $1.time }
        try #require(samples.count == 4, "\(samples)")
        #expect(samples[0].method == .payload)
        #expect(samples[0].position == GeoPoint(latitude: 52.3654939, longitude: 4.8884979, altitude: 21))
        #expect(samples[1].position == nil && samples[1].reason == "payload position refused, few_satellites: 2 satellites, fewer than 4 (at 52.37, 4.89)")
        #expect(samples[2].method == .payload)
        #expect(try #require(samples[2].position).distance(to: GeoPoint(latitude: 43.6046921, longitude: 1.4441872)) < 0.1)
        #expect(samples[3].position == nil && samples[3].reason == "no payload position, no_decoder: the network decoded nothing and no --codec names sensor-3")
        #expect(try store.status().uplinks == 4)

        let reasons = try await mtt.run(["status", "--reasons", "--db", mtt.database]).stdout
        #expect(reasons.contains("Kept without a position (uplinks, why, device):"), "\(reasons)")
        #expect(reasons.contains("  1  no payload position, no_decoder           sensor-3"), "\(reasons)")
        #expect(reasons.contains("  1  payload position refused, few_satellites  tbeam-1"), "\(reasons)")
        let json = try await mtt.run(["status", "--reasons", "--json", "--db", mtt.database]).stdout
        #expect(json.contains(#"{"device":"sensor-3","unplaced_reason":"no payload position, no_decoder","uplinks":1}"#), "\(json)")

        // The coverage kept as the uplinks were placed is what a rebuild makes from the records.
        let kept = try Store(path: mtt.database, access: .readOnly).coverage.coverageTables()
        #expect(kept["coverage_cells"]?.isEmpty == false, "\(kept)")
        let rebuilt = try await mtt.run(["coverage", "--rebuild", "--db", mtt.database])
        #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
        #expect(try Store(path: mtt.database, access: .readOnly).coverage.coverageTables() == kept)

        let exported = try await mtt.run(["export", "--format", "jsonl", "--db", mtt.database]).stdout
        #expect(exported.split(separator: "\n").filter { $0.contains(#""method":"payload""#) }.count == 2, "\(exported)")
    }

    @Test func payloadPositionsAreForListenerModeAndCodecsAreNamed() async throws {
        let mtt = MTTCommand()
        let matching = try await mtt.run(["collect", "--mode", "matching", "--gps", "payload", "--db", mtt.database])
        #expect(matching.status == 64 && matching.stderr.contains("--gps payload is for listener mode"), "\(matching.stderr)")
        let unknown = try await mtt.run(["collect", "--mode", "listener", "--gps", "payload", "--codec", "tbeam-1=tbeam", "--db", mtt.database])
        #expect(unknown.status == 64, "\(unknown.stderr)")
        #expect(unknown.stderr.contains("--codec tbeam-1=tbeam: no codec tbeam; the codecs are mapthethings, cayenne-lpp, ttnmapper-9, fieldtester, adeunis-ftd or lgt92"), "\(unknown.stderr)")
        let alone = try await mtt.run(["collect", "--mode", "listener", "--gps", "fixed:52.1,5.1", "--codec", "+=lgt92", "--db", mtt.database])
        #expect(alone.status == 64 && alone.stderr.contains("--codec goes with --gps payload"), "\(alone.stderr)")
        let inner = try await mtt.run(["collect", "--mode", "listener", "--gps", "payload+gpsx", "--db", mtt.database])
        #expect(inner.status == 64 && inner.stderr.contains("bad GPS spec gpsx"), "\(inner.stderr)")
    }
}
