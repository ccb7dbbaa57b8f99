import Foundation
import MTTCore
import MTTHTTP
import MTTMQTT
import TestSupport
import Testing

/// Stores a TTN message as listener mode would (heard at a known position, with a known fix),
/// uploads it, and returns the TTN Mapper document the server received with the message as JSON.
func uploadToTTNMapper(_ messagePath: String, dir: TemporaryDirectory) async throws -> (document: [String: Any], message: [String: Any]) {
    let raw = try Data(contentsOf: URL(fileURLWithPath: messagePath))
    guard case .uplink(let uplink) = try UplinkDecoder.decode([UInt8](raw)) else {
        throw LoopbackHTTPServerError(reason: "\(messagePath) is not an uplink")
    }
    let store = try Store(path: dir.file(UUID().uuidString + ".sqlite"))
    let session = try store.sessions.startSession(mode: .listener)
    try store.records.record(TTNMapperFieldTests.fix(at: uplink.receivedAt), session: session)
    let uplinkID = try store.records.record(uplink, session: session)
    try store.records.record(Sample(
        sessionID: session, subject: .uplink(uplinkID), time: uplink.receivedAt,
        position: GeoPoint(latitude: 52.1, longitude: 5.1, altitude: 7.5), method: .interpolated))
    let server = try LoopbackHTTPServer { _ in .status(200, #"{"success":true,"message":"ok"}"#) }
    let destination = TTNMapperDestination(url: URL(string: server.baseURL + "/android/v4")!, experiment: nil, userID: "mtt-user-1")
    let summary = try await Uploader(store: store, destination: destination, transport: HTTPTransport(timeout: 5, connections: 1)).run()
    #expect(summary.sent == 1, "\(summary)")
    let request = try #require(server.requests.first)
    #expect(request.path == "/android/v4")
    let document = try #require(request.json)
    let message = try #require(try JSONSerialization.jsonObject(with: raw) as? [String: Any])
    return (document, message)
}

/// Checks a document against the TTN message it came from, reading the message apart from mtt's decoder.
func expectDocument(_ d: [String: Any], matches m: [String: Any]) {
    func nanoseconds(_ text: Any?) -> Int64? { (text as? String).flatMap(RFC3339.parse)?.nanosecondsSinceEpoch }
    let ids = m["end_device_ids"] as? [String: Any] ?? [:]
    let up = m["uplink_message"] as? [String: Any] ?? [:]
    let settings = up["settings"] as? [String: Any] ?? [:]
    let lora = (settings["data_rate"] as? [String: Any])?["lora"] as? [String: Any] ?? [:]
    #expect(d["dev_id"] as? String == ids["device_id"] as? String)
    #expect(d["app_id"] as? String == (ids["application_ids"] as? [String: Any])?["application_id"] as? String)
    #expect(d["dev_eui"] as? String == (ids["dev_eui"] as? String)?.uppercased())
    // Nanoseconds since the epoch, as an integer: the network server's receive time (a message
    // without one is dated on arrival, never by a gateway's clock alone).
    if let server = nanoseconds(up["received_at"] ?? m["received_at"]) {
        #expect((d["time"] as? NSNumber)?.int64Value == server)
    } else {
        #expect((d["time"] as? NSNumber) != nil)
    }
    #expect(d["port"] as? Int == (up["f_port"] as? Int ?? 0))
    #expect(d["counter"] as? Int == (up["f_cnt"] as? Int ?? 0))
    // Hz, as a number, where TTN sends a string.
    #expect((d["frequency"] as? NSNumber)?.int64Value == (settings["frequency"] as? String).flatMap { Int64($0) })
    #expect(d["modulation"] as? String == "LORA")
    #expect(d["bandwidth"] as? Int == lora["bandwidth"] as? Int)
    #expect(d["spreading_factor"] as? Int == lora["spreading_factor"] as? Int)
    #expect(d["coding_rate"] as? String == (lora["coding_rate"] ?? settings["coding_rate"]) as? String)
    if let net = up["network_ids"] as? [String: Any], let netID = net["net_id"] as? String {
        #expect(d["network_id"] as? String == "NS_TTS_V3://\(net["tenant_id"] as? String ?? "ttn")@\(netID)")
    }
    let gateways = d["gateways"] as? [[String: Any]] ?? []
    let metadata = up["rx_metadata"] as? [[String: Any]] ?? []
    #expect(gateways.count == metadata.count)
    for (g, r) in zip(gateways, metadata) {
        let gatewayIDs = r["gateway_ids"] as? [String: Any] ?? [:]
        // Packet Broker names the real gateway in its forwarder fields, as TTN Mapper reads them.
        let broker = r["packet_broker"] as? [String: Any]
        #expect(g["gtw_id"] as? String == (broker?["forwarder_gateway_id"] ?? gatewayIDs["gateway_id"]) as? String)
        if let eui = (broker?["forwarder_gateway_eui"] ?? gatewayIDs["eui"]) as? String { #expect(g["gtw_eui"] as? String == eui.uppercased()) }
        #expect((g["time"] as? NSNumber)?.int64Value == nanoseconds(r["time"]))
        // TTS leaves out zeros: an absent number is 0 (SPEC.md §3); signal_rssi has no value for
        // gateways that do not measure it, and a Packet Broker reception no concentrator time.
        #expect((g["timestamp"] as? NSNumber)?.int64Value == (r["timestamp"] as? NSNumber)?.int64Value ?? (broker == nil ? 0 : nil))
        #expect(g["channel"] as? Int == r["channel_index"] as? Int ?? 0)
        #expect(g["antenna_index"] as? Int == r["antenna_index"] as? Int ?? 0)
        #expect(g["rssi"] as? Double == r["rssi"] as? Double ?? 0)
        #expect(g["signal_rssi"] as? Double == r["signal_rssi"] as? Double)
        #expect(g["snr"] as? Double == r["snr"] as? Double ?? 0)
        let location = r["location"] as? [String: Any]
        #expect(g["latitude"] as? Double == location?["latitude"] as? Double)
        #expect(g["longitude"] as? Double == location?["longitude"] as? Double)
        #expect(g["altitude"] as? Double == location?["altitude"] as? Double)
    }
    // The mapper: the sample's position and the fix's quality.
    #expect(d["latitude"] as? Double == 52.1 && d["longitude"] as? Double == 5.1 && d["altitude"] as? Double == 7.5)
    #expect(d["accuracy_meters"] as? Double == 3.5)
    #expect(d["satellites"] as? Int == 11)
    #expect(d["hdop"] as? Double == 0.8)
    #expect(d["accuracy_source"] as? String == "gps")
    #expect(d["experiment"] as? String == "")
    #expect(d["userid"] as? String == "mtt-user-1")
    #expect(d["useragent"] as? String == "mtt/\(MTTVersion.current)")
}

@Suite("TTN Mapper documents, field by field")
struct TTNMapperFieldTests {
    let dir = TemporaryDirectory("mtt-ttnmapper")

    static func fix(at time: Timestamp) -> Fix {
        Fix(time: time, latitude: 52.1, longitude: 5.1, altitudeMSL: 7.5, eph: 3.5, hdop: 0.8, satellites: 11, mode: .threeD, source: "fixed")
    }

    @Test(arguments: ["three-gateways.json", "zero-omitted.json", "pre-3.22.json", "v2.json"])
    func documentMatchesTheTTNMessage(_ name: String) async throws {
        let (document, message) = try await uploadToTTNMapper(FixtureFiles.own("ttn/" + name), dir: dir)
        if name == "v2.json" {
            // TTN v2: its own field names; the frequency came in MHz.
            #expect(document["dev_id"] as? String == message["dev_id"] as? String)
            #expect(document["counter"] as? Int == message["counter"] as? Int)
            let metadata = message["metadata"] as? [String: Any] ?? [:]
            let mhz = metadata["frequency"] as? Double ?? 0
            #expect((document["frequency"] as? NSNumber)?.int64Value == Int64((mhz * 1_000_000).rounded()))
            #expect((document["time"] as? NSNumber)?.int64Value == (metadata["time"] as? String).flatMap(RFC3339.parse)?.nanosecondsSinceEpoch)
            #expect((document["gateways"] as? [Any])?.count == (metadata["gateways"] as? [Any])?.count)
            #expect(document["network_id"] as? String == TTNMapperDocument.thingsNetworkID)
        } else {
            expectDocument(document, matches: message)
        }
    }

    /// A Packet Broker reception that does not name its forwarder's gateway cannot be put on
    /// TTN Mapper's map; the reception that does is sent.
    @Test func aReceptionWithoutARealGatewayIdIsLeftOut() async throws {
        let path = dir.file("pb.json")
        try Data(#"""
            {"end_device_ids":{"device_id":"d","dev_eui":"0004A30B001C0530"},"received_at":"2026-06-21T10:20:00Z",
             "uplink_message":{"f_cnt":7,"rx_metadata":[
               {"gateway_ids":{"gateway_id":"packetbroker"},"packet_broker":{"forwarder_net_id":"000013"},"rssi":-110,"snr":-3},
               {"gateway_ids":{"gateway_id":"utrecht-dom","eui":"B827EBFFFE000001"},"rssi":-97,"snr":7}],
             "settings":{"data_rate":{"lora":{"bandwidth":125000,"spreading_factor":7}},"frequency":"868100000"}}}
            """#.utf8).write(to: URL(fileURLWithPath: path))
        let (document, _) = try await uploadToTTNMapper(path, dir: dir)
        let gateways = document["gateways"] as? [[String: Any]] ?? []
        #expect(gateways.map { $0["gtw_id"] as? String } == ["utrecht-dom"])
    }

    @Test func threeGatewaysHasTheExactUnits() async throws {
        let (d, _) = try await uploadToTTNMapper(FixtureFiles.own("ttn/three-gateways.json"), dir: dir)
        #expect((d["time"] as? NSNumber)?.int64Value == 1_782_036_903_498_765_432)
        #expect((d["frequency"] as? NSNumber)?.int64Value == 867_100_000)
        #expect(d["bandwidth"] as? Int == 125_000)
        #expect(d["network_id"] as? String == "NS_TTS_V3://ttn@000013")
        let first = try #require((d["gateways"] as? [[String: Any]])?.first)
        #expect((first["time"] as? NSNumber)?.int64Value == 1_782_036_903_401_000_001)
        #expect((first["timestamp"] as? NSNumber)?.int64Value == 4_000_000_000)
    }
}

@Suite("TTN Mapper documents from the TTN documentation", .enabled(if: FixtureFiles.sharedIsPresent, "\(FixtureFiles.sharedSkipReason)"))
struct TTNMapperRealMessageTests {
    let dir = TemporaryDirectory("mtt-ttnmapper-real")

    @Test(arguments: ["v3-uplink-docs-mqtt.json", "v3-uplink-docs-starter-kit.json"])
    func documentMatchesTheMessage(_ name: String) async throws {
        let path = try #require(FixtureFiles.shared("ttn/" + name))
        let (document, message) = try await uploadToTTNMapper(path, dir: dir)
        expectDocument(document, matches: message)
    }
}

@Suite("Sync to TTN Mapper over loopback HTTP")
struct TTNMapperSyncTests {
    let dir = TemporaryDirectory("mtt-ttnmapper-sync")

    func run(_ store: Store, _ server: LoopbackHTTPServer, experiment: String? = nil) async throws -> SyncSummary {
        let destination = TTNMapperDestination(url: URL(string: server.baseURL + "/android/v4")!, experiment: experiment, userID: "mtt-u")
        return try await Uploader(store: store, destination: destination, transport: HTTPTransport(timeout: 5, connections: 4)).run()
    }

    @Test func qualityGateHoldsPoorPositionsBackFromTheMainMapButNotFromAnExperiment() async throws {
        let store = try Store(path: dir.file("gate.sqlite"))
        // 0, 2: good; 1: three satellites; 3: HDOP 7; 4: 30 m accuracy; 5: nothing reported (not checked).
        let quality: [(Int?, Double?, Double?)] = [(9, 0.9, 4), (3, 1.2, 6), (8, 1, 5), (10, 7, 9), (7, 1.5, 30), (nil, nil, nil)]
        try SyncTestData.addListenerSamples(6, to: store) { quality[$0] }
        let server = try LoopbackHTTPServer { _ in .status(200, #"{"success":true,"message":"ok"}"#) }

        let main = try await run(store, server)
        #expect(main.sent == 3 && main.held == 3 && main.queued == 0, "\(main)")
        let sentCounters = Set(server.requests.compactMap { $0.json?["counter"] as? Int })
        #expect(sentCounters == [0, 2, 5])
        #expect(server.requests.allSatisfy { $0.json?["experiment"] as? String == "" })
        let reasons = try store.sync.syncMessages(.ttnmapper, state: .held).map(\.message).sorted()
        #expect(reasons == ["3 satellites (needs 4)", "HDOP 7 (needs ≤ 5)", "accuracy 30 m (needs ≤ 15 m)"])
        let status = try store.status()
        #expect(status.unsynced["ttnmapper"] == 0 && status.held["ttnmapper"] == 3)

        let experiment = try await run(store, server, experiment: "mtt-field-test")
        #expect(experiment.sent == 3 && experiment.held == 0, "\(experiment)")
        let later = server.requests.dropFirst(3)
        #expect(Set(later.compactMap { $0.json?["counter"] as? Int }) == [1, 3, 4])
        #expect(later.allSatisfy { $0.json?["experiment"] as? String == "mtt-field-test" })
        #expect(try store.status().held["ttnmapper"] == 0)

        // Everything has gone somewhere: nothing is sent again, to the map or to an experiment.
        _ = try await run(store, server, experiment: "mtt-field-test")
        _ = try await run(store, server)
        #expect(server.requests.count == 6)
    }

    /// A tracker's uplinks reach TTN Mapper through the application's own integration: mtt holds
    /// them back unless told to send them too.
    @Test func samplesPlacedByTheirDevicesOwnPositionGoOnlyWhenAsked() async throws {
        let store = try Store(path: dir.file("trackers.sqlite"))
        let session = try store.sessions.startSession(mode: .listener)
        let raw = try Data(contentsOf: URL(fileURLWithPath: FixtureFiles.own("ttn/tracker.json")))
        guard case .uplink(let uplink) = try UplinkDecoder.decode([UInt8](raw)) else { throw LoopbackHTTPServerError(reason: "not an uplink") }
        let id = try store.records.record(uplink, session: session)
        try store.records.record(Sample(
            sessionID: session, subject: .uplink(id), time: uplink.earliestReceiveTime,
            position: GeoPoint(latitude: 52.3654939, longitude: 4.8884979, altitude: 21), method: .payload))
        let server = try LoopbackHTTPServer { _ in .status(200, #"{"success":true,"message":"ok"}"#) }

        let held = try await run(store, server)
        #expect(held.sent == 0 && held.held == 1, "\(held)")
        #expect(server.requests.isEmpty)
        let reason = try #require(try store.sync.syncMessages(.ttnmapper, state: .held).first?.message)
        #expect(reason.contains("[sync.ttnmapper] trackers = true"), "\(reason)")

        var destination = TTNMapperDestination(url: URL(string: server.baseURL + "/android/v4")!, experiment: nil, userID: "mtt-u")
        destination.sendsTrackers = true
        let sent = try await Uploader(store: store, destination: destination, transport: HTTPTransport(timeout: 5, connections: 1)).run()
        #expect(sent.sent == 1, "\(sent)")
        #expect(server.requests.first?.json?["counter"] as? Int == 412)
        #expect(server.requests.first?.json?["latitude"] as? Double == 52.3654939)
    }

    @Test func successFalseIsRejectedWithTheMessage() async throws {
        let store = try Store(path: dir.file("false.sqlite"))
        try SyncTestData.addListenerSamples(3, to: store)
        let server = try LoopbackHTTPServer { request in
            (request.json?["counter"] as? Int) == 1
                ? .status(200, #"{"success":false,"message":"Device is not in a valid location"}"#)
                : .status(200, #"{"success":true,"message":"New packet added"}"#)
        }
        let summary = try await run(store, server)
        #expect(summary.sent == 2 && summary.rejected == 1)
        #expect(summary.notes == ["rejected 1×: Device is not in a valid location"])
        #expect(try store.sync.syncMessages(.ttnmapper, state: .rejected).map(\.message) == ["Device is not in a valid location"])
        _ = try await run(store, server)
        #expect(server.requests.count == 3)
    }

    @Test func importedAndUnheardRecordsAreNeverUploaded() async throws {
        let store = try Store(path: dir.file("imported.sqlite"))
        try SyncTestData.addListenerSamples(4, to: store, mode: .imported)
        #expect(try store.status().unsynced == ["mapthethings": 0, "ttnmapper": 0])
    }
}
