import Foundation
import MTTCore
import MTTMQTT
import TestSupport
import Testing

/// `mtt collect --network chirpstack` (issue 31): the simulated network publishing ChirpStack v4
/// events to a real mosquitto (`--network fake?format=chirpstack`), mtt subscribing to them as it
/// would to a ChirpStack or Helium server.
@Suite("ChirpStack as the network", .serialized)
struct ChirpStackCollectTests {
    let mtt = MTTCommand()
    static let application = ChirpStackTopics.demoApplication

    /// The ChirpStack events mosquitto_sub saw, decoded as mtt decodes them.
    static func published(_ wire: ChildProcess.Running, networkID: String) throws -> [Uplink] {
        try wire.stdout.split(separator: "\n").filter { $0.hasPrefix("{") }.compactMap { line in
            let topic = "application/\(application)/device/0000000000000000/event/up"
            guard case .uplink(let uplink) = try ChirpStackDecoder.decode(topic: topic, Array(line.utf8), networkID: networkID) else { return nil }
            return uplink
        }
    }

    /// Active mode: each attempt joined to the uplink ChirpStack reported (DevEUI and FCnt), with
    /// its gateways by EUI, and every sample carrying the server's network id.
    @Test func activeModeOnChirpStackThroughARealBroker() async throws {
        let broker = try await MosquittoBroker.start()
        let wire = try await broker.subscribe(topic: "application/+/device/+/event/up")
        defer { wire.stop() }
        let run = try await mtt.collect([
            "collect", "--mode", "active", "--node", "fake", "--gps", "fake", "--network", "fake?format=chirpstack",
            "--mqtt-url", "mqtt://127.0.0.1:\(broker.port)", "--speed", "20", "--duration", "600s", "--db", mtt.database,
        ], untilConfirmed: 5)
        #expect(run.result.status == 0, "stderr: \(run.stderr)")
        let store = try Store(path: mtt.database)
        let stored = try store.status().uplinks
        #expect(stored > 0)
        #expect(await eventually(timeout: 10) { wire.stdout.split(separator: "\n").filter { $0.hasPrefix("{") }.count >= stored })
        let heard = Dictionary(try Self.published(wire, networkID: "NS_CHIRP://127.0.0.1").map { ($0.fCnt ?? 0, $0) }) { first, _ in first }
        let attempts = try store.records.attempts(session: 1)
        #expect(attempts.count >= 5)
        for match in attempts.dropLast() {
            let counter = try #require(match.attempt.frameCounter)
            #expect((match.uplinkID != nil) == (heard[counter] != nil), "f_cnt \(counter)")
            if let uplinkID = match.uplinkID, let sent = heard[counter] {
                let uplink = try #require(try store.records.uplink(uplinkID))
                #expect(uplink.networkID == "NS_CHIRP://127.0.0.1")
                #expect(uplink.receptions.map(\.gatewayEUI) == sent.receptions.map(\.gatewayEUI))
                #expect(uplink.receptions.allSatisfy { $0.gatewayEUI?.hasPrefix(SimulatedNetwork.Gateway.euiPrefix) == true })
                #expect(uplink.receptions.map(\.rssi) == sent.receptions.map(\.rssi))
            }
        }
    }

    /// A listener at a fixed place hearing every device of the application on `broker`, once it
    /// said it is connected.
    func listening(on broker: MosquittoBroker, network: String) async throws -> ChildProcess.Running {
        let run = try mtt.start([
            "collect", "--mode", "listener", "--gps", "fixed:52.09,5.12", "--network", network,
            "--mqtt-url", "mqtt://127.0.0.1:\(broker.port)", "--application", Self.application, "--device", "+",
            "--db", mtt.database,
        ])
        #expect(await run.waitForOutput(timeout: 30) { $0.contains("network connected") }, "\(run.stderr)")
        return run
    }

    /// A ChirpStack v4 uplink event of device 0004a30b001c0530, heard by two gateways.
    static func event(_ fCnt: Int, at time: Timestamp) -> String {
        #"{"time":"\#(RFC3339.string(time, fractionDigits: 6))","deviceInfo":{"applicationId":"\#(application)","deviceName":"tracker-7","devEui":"0004a30b001c0530"},"fCnt":\#(fCnt),"fPort":1,"data":"AQ==","rxInfo":[{"gatewayId":"b827ebfffe000001","rssi":-97,"snr":7.5,"location":{"latitude":52.1,"longitude":5.1}},{"gatewayId":"0016c001ff1a2b3c","rssi":-118}],"txInfo":{"frequency":868100000,"modulation":{"lora":{"bandwidth":125000,"spreadingFactor":9,"codeRate":"CR_4_5"}}}}"#
    }

    /// Listener mode on a Helium server (`--network helium`): each uplink placed, carrying Helium's
    /// network id and its gateways by EUI; a join event on the same prefix ignored, a ChirpStack
    /// v3 message said once.
    @Test func listenerModeOnHeliumThroughARealBroker() async throws {
        let broker = try await MosquittoBroker.start()
        let run = try await listening(on: broker, network: "helium")
        defer { run.stop() }
        let prefix = "application/\(Self.application)/device/0004a30b001c0530/event/"
        let v3 = try String(contentsOfFile: FixtureFiles.own("chirpstack/v3.json"), encoding: .utf8).replacingOccurrences(of: "\n", with: "")
        try await broker.publish(topic: prefix + "join", lines: [try String(contentsOfFile: FixtureFiles.own("chirpstack/join.json"), encoding: .utf8)
            .replacingOccurrences(of: "\n", with: "")])
        try await broker.publish(topic: prefix + "up", lines: [v3, v3] + (1...3).map { Self.event($0, at: .now()) })
        #expect(await run.waitForOutput(timeout: 20) { $0.contains("heard tracker-7 f_cnt 3") }, "\(run.stdout)\(run.stderr)")
        run.signal(SIGTERM)
        #expect(await run.wait(timeout: 20))
        #expect(run.result.status == 0, "\(run.stderr)")
        #expect(run.stderr.components(separatedBy: "ChirpStack v3 is not supported").count == 2, "\(run.stderr)")
        let store = try Store(path: mtt.database, access: .readOnly)
        #expect(try store.status().uplinks == 3)
        let samples = try store.sync.queuedSamples([1, 2, 3])
        #expect(samples.count == 3, "not all placed: \(samples.map(\.id))")
        for sample in samples {
            #expect(sample.uplink.networkID == "NS_HELIUM://000024" && sample.uplink.spreadingFactor == 9)
            #expect(sample.uplink.receptions.map(\.gatewayEUI) == ["B827EBFFFE000001", "0016C001FF1A2B3C"])
        }

        // To TTN Mapper (an experiment: a fixed position passes no quality gate), with Helium's
        // network id and each gateway by its id as ChirpStack names it, and its EUI.
        let server = try LoopbackHTTPServer { _ in .status(200, #"{"success":true}"#) }
        defer { server.stop() }
        let sync = try await mtt.run(["sync", "--target", "ttnmapper", "--url", server.baseURL + "/android/v4", "--experiment", "helium-test", "--db", mtt.database])
        #expect(sync.status == 0 && sync.stdout.contains("ttnmapper: 3 sent"), "\(sync.stdout)\(sync.stderr)")
        let documents = server.requests.compactMap { try? JSONSerialization.jsonObject(with: Data($0.body)) as? [String: Any] }
        #expect(documents.count == 3)
        for document in documents {
            #expect(document["network_id"] as? String == "NS_HELIUM://000024" && document["experiment"] as? String == "helium-test")
            let gateways = document["gateways"] as? [[String: Any]] ?? []
            #expect(gateways.compactMap { $0["gtw_id"] as? String } == ["b827ebfffe000001", "0016c001ff1a2b3c"])
            #expect(gateways.compactMap { $0["gtw_eui"] as? String } == ["B827EBFFFE000001", "0016C001FF1A2B3C"])
        }
    }

    /// Hostile uplinks (issue 47, items 7, 8 and 12): an RSSI of 1e400 (+Inf once parsed), a
    /// gateway at latitude 91, 5,000 receptions in one message, a gateway id with a NUL and a
    /// bidi override. Each is stored held to the limits and said in one line; the run goes on,
    /// and the coverage of the database is written as JSON.
    @Test func hostileUplinksAreHeldToTheLimitsAndTheRunGoesOn() async throws {
        let broker = try await MosquittoBroker.start()
        let run = try await listening(on: broker, network: "chirpstack")
        defer { run.stop() }
        let now = Timestamp.now()
        func event(_ fCnt: Int, rxInfo: String) -> String {
            Self.event(fCnt, at: now).replacing(#/"rxInfo":\[.*\],"txInfo"/#) { _ in #""rxInfo":[\#(rxInfo)],"txInfo""# }
        }
        let flood = (0..<5_000).map { #"{"gatewayId":"\#(String(format: "%016x", 0xAA00_0000 + $0))","rssi":-100,"snr":1}"# }.joined(separator: ",")
        try await broker.publish(topic: "application/\(Self.application)/device/0004a30b001c0530/event/up", lines: [
            event(1, rxInfo: #"{"gatewayId":"b827ebfffe000001","rssi":1e400,"snr":7.5,"location":{"latitude":91,"longitude":500}}"#),
            event(2, rxInfo: #"{"gatewayId":"gw\u0000cut\u202Eevil","rssi":-90,"snr":2}"#),
            event(3, rxInfo: flood),
            event(4, rxInfo: #"{"gatewayId":"b827ebfffe000001","rssi":-97,"snr":7.5}"#),
        ])
        let store = try Store(path: mtt.database, access: .readOnly)
        // As long as it takes: what is stored is tested.
        #expect(await eventually(timeout: runProgressTimeout) { (try? store.status().uplinks) == 4 }, "\(run.stdout)\(run.stderr)")
        run.signal(SIGTERM)
        #expect(await run.wait(timeout: 20))
        #expect(run.result.status == 0, "\(run.stderr)")
        #expect(run.stderr.components(separatedBy: "is outside -200…30: left out").count == 2, "\(run.stderr)")
        #expect(run.stderr.contains("5000 receptions in one uplink: the first 200 kept"), "\(run.stderr)")
        // Of those 200, as many as are still new to the run this minute (60 a minute, two taken).
        #expect(run.stderr.contains("more than 60 gateways new to this run in a minute: 142 receptions left out"), "\(run.stderr)")
        #expect(!run.stderr.contains("\u{202E}") && !run.stdout.contains("\u{202E}") && !run.stdout.contains("\u{0}"))

        let uplinks = try (1...4).compactMap { try store.records.uplink(Int64($0)) }
        #expect(uplinks.map(\.receptions.count) == [1, 1, 58, 1])
        #expect(uplinks[0].receptions[0].rssi == nil && uplinks[0].receptions[0].location == nil)
        #expect(uplinks[1].receptions[0].gatewayID == "gw\\u{0}cut\\u{202E}evil")
        let coverage = try await mtt.run(["coverage", "--json", "--db", mtt.database])
        #expect(coverage.status == 0, "\(coverage.stderr)")
        #expect((try? JSONSerialization.jsonObject(with: Data(coverage.stdout.utf8))) != nil, "\(coverage.stdout)")
    }

    /// What keeps a ChirpStack run from starting, each said in one line before anything opens.
    @Test func chirpStackNeedsItsServerApplicationAndDevices() async throws {
        let noServer = try await mtt.run(["collect", "--mode", "listener", "--gps", "fake", "--network", "chirpstack", "--db", mtt.database])
        #expect(noServer.status == 64 && noServer.stderr.contains("--network chirpstack needs its MQTT server"), "\(noServer.stderr)")
        let noApplication = try await mtt.run([
            "collect", "--mode", "listener", "--gps", "fake", "--network", "chirpstack", "--mqtt-url", "mqtt://127.0.0.1:1", "--device", "+",
            "--db", mtt.database,
        ])
        #expect(noApplication.status == 64 && noApplication.stderr.contains("give --application ID"), "\(noApplication.stderr)")
        let badDevice = try await mtt.run([
            "collect", "--mode", "listener", "--gps", "fake", "--network", "chirpstack", "--mqtt-url", "mqtt://127.0.0.1:1",
            "--application", Self.application, "--device", "mapper-node-1", "--db", mtt.database,
        ])
        #expect(badDevice.status == 64 && badDevice.stderr.contains("ChirpStack names devices by their DevEUI"), "\(badDevice.stderr)")
        let badNetwork = try await mtt.run(["collect", "--mode", "listener", "--gps", "fake", "--network", "loriot", "--db", mtt.database])
        #expect(badNetwork.status == 64 && badNetwork.stderr.contains("unknown network loriot: use tts, chirpstack or helium, or fake[?format=NAME]"), "\(badNetwork.stderr)")
        let badFormat = try await mtt.run(["collect", "--mode", "listener", "--gps", "fake", "--network", "fake?format=loriot", "--db", mtt.database])
        #expect(badFormat.status == 64 && badFormat.stderr.contains("the simulated network's options are format=NAME (NAME tts, chirpstack or helium), trackers=N"), "\(badFormat.stderr)")
    }

    /// `--network tts` (DESIGN's contract) names The Things Stack, whose rules then apply: its
    /// device IDs, not ChirpStack's DevEUIs.
    @Test func theThingsStackIsANetworkByName() async throws {
        let badDevice = try await mtt.run([
            "collect", "--mode", "listener", "--gps", "fake", "--network", "tts", "--mqtt-url", "mqtt://127.0.0.1:1",
            "--mqtt-user", "my-mapper@ttn", "--device", "Not_An_ID", "--db", mtt.database,
        ])
        #expect(badDevice.status == 64 && badDevice.stderr.contains("bad device ID Not_An_ID: TTS device IDs"), "\(badDevice.stderr)")
        let noServer = try await mtt.run(["collect", "--mode", "listener", "--gps", "fake", "--network", "tts", "--db", mtt.database])
        #expect(noServer.status == 64 && noServer.stderr.contains("--network tts needs its MQTT server"), "\(noServer.stderr)")
    }
}
