import Foundation
import MTTCore
import MTTMQTT
import TestSupport
import Testing

/// Issue 44: mtt as a field tester's backend, through a real mosquitto on The Things Stack's and
/// ChirpStack's topics: each test uplink answered with its 6-byte reply as a downlink on the
/// network's own topic, in the network's own JSON; the day's cap held.
@Suite("Field testers: answered through a real broker", .serialized)
struct FieldTesterAnswerTests {
    let mtt = MTTCommand()
    static let application = ChirpStackTopics.demoApplication
    static let devEUI = "2CF7F1C0440001E1"
    /// SPEC §9.3's example frame: the tester at 43.6046921, 1.4441872.
    static let frame = Hex.bytes("1ECDAF810663047E0C08")!
    static let here = GeoPoint(latitude: 43.6046921, longitude: 1.4441872)

    static func test(_ fCnt: UInt32) -> Uplink {
        Uplink(
            deviceID: "wio-1", applicationID: application, devEUI: devEUI, fPort: 1, fCnt: fCnt, spreadingFactor: 9,
            receivedAt: Timestamp.now(), payload: frame,
            receptions: [
                GatewayReception(gatewayID: "gw-near", gatewayEUI: "B827EBFFFE000001", rssi: -88, snr: 7, location: here.destination(metres: 700, bearing: 30)),
                GatewayReception(gatewayID: "gw-far", gatewayEUI: "B827EBFFFE000002", rssi: -117, snr: -9, location: here.destination(metres: 11_000, bearing: 200)),
                GatewayReception(gatewayID: "gw-secret", gatewayEUI: "B827EBFFFE000003", rssi: -104, snr: 1),
            ])
    }

    struct Network: Sendable, CustomTestStringConvertible {
        var name: String
        var arguments: [String]
        var up: String
        var down: String
        var testDescription: String { name }
    }

    static let networks = [
        Network(name: "tts", arguments: ["--mqtt-user", "testers@ttn"], up: "v3/testers@ttn/devices/wio-1/up", down: "v3/+/devices/+/down/+"),
        Network(name: "chirpstack", arguments: ["--network", "chirpstack", "--application", application, "--mqtt-user", "testers"],
                up: "application/\(application)/device/\(devEUI.lowercased())/event/up", down: "application/+/device/+/command/down"),
    ]

    /// The reply bytes of each downlink on the wire, by the network's JSON.
    static func replies(_ wire: ChildProcess.Running, _ network: Network) throws -> [[UInt8]] {
        try wire.stdout.split(separator: "\n").filter { $0.hasPrefix("{") && !$0.contains("mtt-test-subscribed") }.map { line in
            let json = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            if network.name == "tts" {
                let downlink = try #require((json["downlinks"] as? [[String: Any]])?.first)
                #expect(downlink["f_port"] as? Int == 2 && downlink["priority"] as? String == "HIGH", "\(line)")
                return try #require(Data(base64Encoded: downlink["frm_payload"] as? String ?? "")).map { $0 }
            }
            #expect(json["fPort"] as? Int == 2 && json["devEui"] as? String == devEUI.lowercased() && json["confirmed"] as? Bool == false, "\(line)")
            return try #require(Data(base64Encoded: json["data"] as? String ?? "")).map { $0 }
        }
    }

    func listen(_ network: Network, on broker: MosquittoBroker, cap: Int?) throws -> ChildProcess.Running {
        var config: [String] = []
        if let cap {
            let file = mtt.dir.file("testers.toml")
            try "[field_tester]\ndaily_cap = \(cap)\n".write(toFile: file, atomically: true, encoding: .utf8)
            config = ["--config", file]
        }
        return try mtt.start([
            "collect", "--mode", "listener", "--gps", "payload", "--field-tester", "wio-1", "--device", "+",
            "--mqtt-url", "mqtt://127.0.0.1:\(broker.port)", "--db", mtt.database,
        ] + network.arguments + config)
    }

    @Test(arguments: networks)
    func twentyTestsGetTwentyRightReplies(_ network: Network) async throws {
        let broker = try await MosquittoBroker.start()
        let wire = try await broker.subscribe(topic: network.down)
        defer { wire.stop() }
        let run = try listen(network, on: broker, cap: 30)
        defer { run.stop() }
        #expect(await run.waitForOutput(timeout: 30) { $0.contains("network connected") }, "\(run.stderr)")
        let tests = (1...20).map { Self.test(UInt32(280 + $0)) }
        let encoded = tests.map { network.name == "tts" ? UplinkEncoder.json($0) : ChirpStackEncoder.json($0, applicationID: Self.application) }
        try await broker.publish(topic: network.up, lines: encoded.map { String(decoding: $0, as: UTF8.self) })
        // As long as it takes: the replies are tested.
        #expect(await eventually(timeout: runProgressTimeout) { (try? Self.replies(wire, network).count) ?? 0 >= 20 }, "\(wire.stdout)\n\(run.stdout)\n\(run.stderr)")
        let replies = try Self.replies(wire, network)
        // Three gateways, −117…−88 dBm, the nearest 700 m (3 steps), the farthest 11 km (44 steps):
        // the one without a position counts in the number and the RSSI only.
        #expect(replies == tests.map { [UInt8(truncatingIfNeeded: $0.fCnt!), 83, 112, 3, 44, 3] }, "\(replies.map(Hex.string))")
        #expect(await run.waitForOutput(timeout: 10) { $0.contains("answered wio-1's test f_cnt 300: 2C5370032C03") }, "\(run.stdout)")
        run.signal(SIGTERM)
        #expect(await run.wait(timeout: 30))
        #expect(try Store(path: mtt.database, access: .readOnly).status().uplinks == 20)
        let events = try await mtt.run(["events", "--type", "field_test_answered", "--db", mtt.database])
        #expect(events.stdout.split(separator: "\n").count == 20, "\(events.stdout.prefix(500)) \(events.stderr)")
        let status = try await mtt.run(["status", "--json", "--db", mtt.database]).stdout
        #expect(status.contains(#""field_tests_answered":20"#), "\(status)")
        // Each test's dot carries the reply its tester showed, for the map's popup.
        let dots = try await mtt.run(["export", "--format", "geojson", "--db", mtt.database]).stdout
        #expect(dots.components(separatedBy: #""field_test":""#).count - 1 == 20 && dots.contains(#""f_cnt":300"#)
                && dots.contains(#""field_test":"2C5370032C03""#), "\(dots.prefix(800))")
    }

    /// The simulated field testers (`--network fake?testers=N`) through a real broker, as The Things
    /// Stack and as ChirpStack: every test answered, every reply the tester reads back the one its
    /// test earned, the discovery uplinks (every tenth) never answered.
    @Test(arguments: ["fake?testers=3", "fake?format=chirpstack&testers=3"])
    func simulatedTestersReadTheirRepliesOnTheBroker(_ network: String) async throws {
        let broker = try await MosquittoBroker.start()
        let run = try await mtt.run([
            "collect", "--mode", "listener", "--gps", "payload", "--network", network, "--mqtt-url", "mqtt://127.0.0.1:\(broker.port)",
            "--speed", "20", "--duration", "12s", "--db", mtt.database,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let answered = run.stdout.split(separator: "\n").filter { $0.contains("answered sim-tester-") }
        let shown = run.stderr.split(separator: "\n").filter { $0.contains(" shows the reply to f_cnt ") && $0.hasSuffix(", as heard") }
        #expect(answered.count >= 9, "\(run.stdout)")
        // The last replies may still be on their way when the run stops.
        #expect(shown.count >= answered.count - 3 && shown.count <= answered.count, "\(answered.count) answered, \(shown.count) read back:\n\(run.stderr)")
        #expect(!run.stderr.contains("sim-tester-00") || !run.stderr.split(separator: "\n").contains { $0.contains("sim-tester-") && !$0.hasSuffix(", as heard") },
                "a reply the tester did not expect:\n\(run.stderr)")
        #expect(!answered.contains { $0.contains("test f_cnt 10:") }, "a discovery uplink answered: \(answered)")
        // Twelve tests each in 240 simulated seconds: the tenth reply of a day is a tester's last.
        let notAnswered = run.stdout.split(separator: "\n").filter { $0.contains("not answered") }
        #expect(notAnswered.allSatisfy { $0.contains("10 replies today, the cap") }, "\(notAnswered)")
    }

    /// A broker that does not let the MQTT user write downlinks: one line saying which right is
    /// missing, said once, and every test still kept.
    @Test func aRefusedReplyIsSaidOnceAndTheTestsAreKept() async throws {
        let user = MosquittoBroker.Credentials(username: "testers", password: "secret-for-tests")
        let broker = try await MosquittoBroker.start(credentials: user, acl: [
            "user testers", "topic read #", "topic write application/+/device/+/event/up",
        ])
        let network = Self.networks[1]
        let run = try mtt.start([
            "collect", "--mode", "listener", "--gps", "payload", "--field-tester", "+", "--device", "+",
            "--mqtt-url", "mqtt://127.0.0.1:\(broker.port)", "--db", mtt.database,
            "--network", "chirpstack", "--application", Self.application, "--mqtt-user", "testers",
        ], environment: ["MTT_MQTT_PASSWORD": user.password])
        defer { run.stop() }
        #expect(await run.waitForOutput(timeout: 30) { $0.contains("network connected") }, "\(run.stderr)")
        let tests = (1...4).map { String(decoding: ChirpStackEncoder.json(Self.test(UInt32($0)), applicationID: Self.application), as: UTF8.self) }
        try await broker.publish(topic: network.up, lines: tests, credentials: user)
        #expect(await run.waitForOutput(timeout: 60) { $0.contains("heard wio-1 f_cnt 4") }, "\(run.stdout)")
        #expect(await run.waitForOutput(timeout: 10) { $0.contains("field tests not answered: the MQTT server refused the message to application/") },
                "\(run.stdout)")
        let said = run.stdout.components(separatedBy: "field tests not answered:").count - 1
        #expect(said == 1 && run.stdout.contains("the MQTT user needs the right to write downlinks"), "\(run.stdout)")
        #expect(try Store(path: mtt.database, access: .readOnly).status().uplinks == 4)
    }

    @Test func theDailyCapHoldsAndIsSaidOnce() async throws {
        let broker = try await MosquittoBroker.start()
        let network = Self.networks[0]
        let wire = try await broker.subscribe(topic: network.down)
        defer { wire.stop() }
        let run = try listen(network, on: broker, cap: nil)
        defer { run.stop() }
        #expect(await run.waitForOutput(timeout: 30) { $0.contains("network connected") }, "\(run.stderr)")
        try await broker.publish(topic: network.up, lines: (1...13).map { String(decoding: UplinkEncoder.json(Self.test(UInt32($0))), as: UTF8.self) })
        #expect(await run.waitForOutput(timeout: 60) { $0.contains("heard wio-1 f_cnt 13") }, "\(run.stdout)")
        #expect(try Self.replies(wire, network).map { $0[0] } == Array(1...10), "the default cap is TTN's ten a day")
        #expect(run.stdout.components(separatedBy: "wio-1's test not answered: 10 replies today, the cap").count == 2, "\(run.stdout)")
        #expect(try Store(path: mtt.database, access: .readOnly).status().uplinks == 13, "every test is kept, answered or not")
    }
}
