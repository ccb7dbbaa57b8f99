import Foundation
import Synchronization
import MTTBluetooth
import MTTCore
import MTTHTTP
import MTTMQTT
import TestSupport
import Testing

/// A drive with the emulated BLE node while the network hears it through a real broker (the
/// simulated network publishes as The Things Stack does), and mtt does not hear the broker at all,
/// or only for half the drive. What the broker carried is what the Storage Integration keeps;
/// `Fetcher` over `TTSStorageReader` and real HTTP completes the session from it.
@Suite("Fetching a drive made without a network", .serialized)
struct OfflineFetchTests {
    static let user = "mtt-demo@ttn"

    /// The drive's parts: a broker and a subscriber writing down everything it carries, the
    /// emulated node heard by the simulated network, a Storage Integration to fill afterwards.
    struct Drive {
        let dir = TemporaryDirectory()
        let broker: MosquittoBroker
        let wire: ChildProcess.Running
        let store: Store
        let clock = ScaledClock(scale: 10)
        let node: EmulatedNode
        let publisher: TTNUplinkPublisher
        let storage: StorageIntegrationServer
        /// Uplinks the simulated network has published so far.
        let published = Tally()
        /// Uplinks libmosquitto refused to publish (not connected): dropped, as the network would.
        let refused = Tally()

        init() async throws {
            broker = try await MosquittoBroker.start()
            wire = try await broker.subscribe(topic: "v3/\(OfflineFetchTests.user)/devices/+/up")
            store = try Store(path: dir.file("drive.sqlite"))
            node = try await EmulatedNode.start(sendTimeout: 2)
            await node.emulator.configure { $0.airtime = 0.01 }
            publisher = try TTNUplinkPublisher(settings: MQTTSettings(endpoint: MQTTEndpoint(host: "127.0.0.1", port: broker.port, usesTLS: false), username: OfflineFetchTests.user))
            storage = try StorageIntegrationServer()
            // Gateways some kilometres off: some transmissions heard, some not.
            let network = SimulatedNetwork.around(GeoPoint(latitude: 52.09, longitude: 5.12).offset(metres: 6_000, bearing: 200))
            let publisher = self.publisher
            let (tally, refused) = (published, refused)
            let feed = SimulatedUplinkFeed(network: network, clock: clock) { uplink in
                if publisher.publish(uplink) { tally.add() } else { refused.add() }
            }
            await feed.hear(node.emulator, node: node.node.name, info: try await node.node.info())
        }

        var mqtt: MQTTSettings {
            MQTTSettings(endpoint: MQTTEndpoint(host: "127.0.0.1", port: broker.port, usesTLS: false), username: OfflineFetchTests.user)
        }

        /// Drives with `uplinks` as the run's network source until `firstHalf` holds, runs `halfway`,
        /// drives on until `secondHalf` holds, then stops and waits until the subscriber has
        /// written down everything the network published.
        func run(
            uplinks: (any UplinkSource)?, firstHalf: @escaping (Drive) throws -> Bool, secondHalf: @escaping (Drive) throws -> Bool,
            halfway: () -> Void = {}
        ) async throws -> CollectionRun {
            let run = try CollectionRun(
                store: store,
                ports: .init(fixes: MovingFixSource(clock: clock), nodes: [ActiveNode(link: node.node, devEUI: try await node.node.info().devEUI, connector: node)], uplinks: uplinks),
                settings: .init(
                    mode: .active, policy: CollectEventLog.brisk, interval: 5, clock: clock,
                    description: SessionDescription(nodes: "fake", mqttURL: mqtt.endpoint.description, mqttUser: OfflineFetchTests.user)))
            run.start()
            // Each half as long as it takes: what the drive stored is tested, not its pace.
            #expect(try await eventually(timeout: runProgressTimeout) { try firstHalf(self) }, "the first half of the drive did not happen")
            halfway()
            #expect(try await eventually(timeout: runProgressTimeout) { try secondHalf(self) }, "the second half of the drive did not happen")
            #expect(await run.stop() == nil)
            // The last transmission's uplink may still be on its way through the broker.
            #expect(await eventually(timeout: 10) { wireLines() >= published.count }, "\(published.count) published, \(wireLines()) written down by the subscriber, \(refused.count) refused")
            return run
        }

        /// Uplinks the subscriber has written down.
        func wireLines() -> Int {
            wire.stdout.split(separator: "\n").filter { $0.hasPrefix("{") }.count
        }

        /// What the broker carried, by frame counter: now also what the Storage Integration keeps.
        func carried() throws -> [UInt32: Uplink] {
            var heard: [UInt32: Uplink] = [:]
            for line in wire.stdout.split(separator: "\n") where line.hasPrefix("{") {
                guard case .uplink(let uplink) = try UplinkDecoder.decode(Array(line.utf8)) else { continue }
                heard[uplink.fCnt ?? 0] = uplink
                storage.store(String(line))
            }
            return heard
        }

        func fetch() async throws -> FetchSummary {
            let targets = try FetchPlanner().targets(in: store, since: Timestamp.now().adding(seconds: -3_600))
            let reader = TTSStorageReader(cluster: URL(string: storage.baseURL)!, application: "mtt-demo", apiKey: "NNSXS.TEST-KEY", transport: HTTPTransport(timeout: 10, connections: 1))
            return await Fetcher(store: store).run(targets.map { ($0, reader) })
        }

        /// Per attempt: heard exactly when the broker carried its frame, with those gateways,
        /// RSSI and SNR — what the live path stores from the same messages.
        func expectAgreement(with heard: [UInt32: Uplink], session: Int64) throws {
            let attempts = try store.records.attempts(session: session)
            for (attempt, uplinkID) in attempts where attempt.state == .confirmed {
                let counter = try #require(attempt.frameCounter)
                let sent = heard[counter]
                #expect((uplinkID != nil) == (sent != nil), "f_cnt \(counter): published \(sent != nil), stored heard \(uplinkID != nil)")
                if let uplinkID, let sent {
                    let stored = try #require(try store.records.uplink(uplinkID))
                    #expect(stored.devEUI == attempt.devEUI)
                    #expect(stored.receptions.map(\.gatewayID) == sent.receptions.map(\.gatewayID))
                    #expect(stored.receptions.map(\.rssi) == sent.receptions.map(\.rssi))
                    #expect(stored.receptions.map(\.snr) == sent.receptions.map(\.snr))
                    #expect(stored.receivedAt == sent.receivedAt)
                }
            }
        }
    }

    @Test func anOfflineDriveFetchedReadsAsIfMQTTHadBeenLive() async throws {
        let drive = try await Drive()
        defer { drive.wire.stop() }
        let run = try await drive.run(
            uplinks: nil, firstHalf: { try $0.store.status().confirmed >= 4 }, secondHalf: { try $0.store.status().confirmed >= 8 })
        let heard = try drive.carried()
        let before = try drive.store.status()
        #expect(before.uplinks == 0 && before.heard == 0, "the offline run heard something")
        #expect(before.confirmed >= 8)

        let summary = try await drive.fetch()
        #expect(summary.errors.isEmpty, "\(summary.errors)")
        #expect(summary.read == heard.count && summary.new == heard.count && summary.alreadyStored == 0)
        #expect(summary.heard == heard.count)
        #expect(summary.heard > 0 && summary.lost > 0, "the drive should have both: heard \(summary.heard), lost \(summary.lost)")
        #expect(summary.lost == before.confirmed - summary.heard)
        try drive.expectAgreement(with: heard, session: run.session)
        // Every heard attempt is placed where the node was when it sent, as live.
        #expect(try drive.store.status().samples == heard.count)

        // A second fetch adds nothing.
        let again = try await drive.fetch()
        #expect(again.new == 0 && again.alreadyStored == heard.count && again.heard == 0)
        #expect(try drive.store.status().uplinks == heard.count)
    }

    @Test func aDriveLiveForHalfItsTimeIsCompletedWithoutAnUplinkTwice() async throws {
        let drive = try await Drive()
        defer { drive.wire.stop() }
        // mtt hears the broker through a relay that is cut halfway, as a network that goes away.
        let relay = try TCPRelay(to: drive.broker.port)
        var settings = drive.mqtt
        settings.endpoint = MQTTEndpoint(host: "127.0.0.1", port: relay.port, usesTLS: false)
        let source = TTNUplinkSource(settings: settings, topics: try TTNTopics.uplinks(username: Self.user, devices: ["+"]))
        // Cut once something was heard live; go on until more was published than mtt heard.
        let run = try await drive.run(
            uplinks: source, firstHalf: { try $0.store.status().uplinks >= 1 },
            secondHalf: { drive in try drive.store.status().confirmed >= 8 && drive.published.count > (try drive.store.status().uplinks) + 1 }
        ) { relay.cut() }
        let heard = try drive.carried()
        let live = try drive.store.status().uplinks
        #expect(live > 0 && live < heard.count, "\(live) of \(heard.count) heard live")

        let summary = try await drive.fetch()
        #expect(summary.errors.isEmpty, "\(summary.errors)")
        #expect(summary.alreadyStored == live && summary.new == heard.count - live)
        #expect(try drive.store.status().uplinks == heard.count, "an uplink stored twice, or one missing")
        try drive.expectAgreement(with: heard, session: run.session)
    }
}

/// A matching run without a network: the track alone is recorded; uplinks of every layout the
/// decoder reads (current, pre-3.22, Packet Broker, zero-omitted) go out on a real broker during it,
/// one of them timed before the drive began. The fetch places each on the track by its time.
@Suite("Fetching a matching run made without a network")
struct OfflineMatchingFetchTests {
    /// A fixture message, heard by the network at `time` (its receive times moved there).
    static func message(_ fixture: String, at time: Timestamp) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: FixtureFiles.own("ttn/\(fixture)")))
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let stamp = RFC3339.string(time, fractionDigits: 9)
        object["received_at"] = stamp
        var uplink = try #require(object["uplink_message"] as? [String: Any])
        uplink["received_at"] = stamp
        uplink["rx_metadata"] = (uplink["rx_metadata"] as? [[String: Any]])?.map { rx in
            var rx = rx
            if rx["time"] != nil { rx["time"] = stamp }
            return rx
        }
        object["uplink_message"] = uplink
        return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    @Test func everyFetchedUplinkIsPlacedByItsTimeOrToldWhyNot() async throws {
        let dir = TemporaryDirectory()
        let broker = try await MosquittoBroker.start()
        let wire = try await broker.subscribe(topic: "v3/mtt-demo@ttn/devices/+/up")
        defer { wire.stop() }
        let store = try Store(path: dir.file("matching.sqlite"))
        // At 2× a stall of the loaded test machine stays well inside the 30 s gap a track may have.
        let clock = ScaledClock(scale: 2)
        let run = try CollectionRun(
            store: store, ports: .init(fixes: MovingFixSource(clock: clock)),
            settings: .init(mode: .matching, interval: 1, clock: clock, description: SessionDescription(mqttUser: "mtt-demo@ttn", devices: ["+"])))
        run.start()
        // Uplinks heard while the track is being recorded: after its first points, before its last.
        func trackReaches(_ time: Timestamp) async throws {
            try await eventually(timeout: 20) { try store.records.fixes(session: run.session).last.map({ $0.time > time }) ?? false }
        }
        try await trackReaches(clock.now().adding(seconds: 1))
        let layouts = ["three-gateways.json", "pre-3.22.json", "packet-broker.json", "zero-omitted.json"]
        var last = clock.now()
        for (index, layout) in layouts.enumerated() {
            last = clock.now()
            try await broker.publish(topic: "v3/mtt-demo@ttn/devices/node-\(index)/up", lines: [try Self.message(layout, at: last)])
            // Each a little later on the track than the one before.
            try await trackReaches(last.adding(seconds: 1))
        }
        // Heard ten minutes before the drive began: no track there.
        try await broker.publish(topic: "v3/mtt-demo@ttn/devices/early/up", lines: [try Self.message("zero-omitted.json", at: clock.now().adding(seconds: -600))])
        try await trackReaches(last.adding(seconds: 2))
        #expect(await run.stop() == nil)
        #expect(try store.status().uplinks == 0)
        #expect(try store.records.fixes(session: run.session).count >= 3, "no track recorded without a network")

        let storage = try StorageIntegrationServer()
        for line in wire.stdout.split(separator: "\n") where line.hasPrefix("{") { storage.store(String(line)) }
        #expect(storage.storedCount == 5)
        let targets = try FetchPlanner(margin: 900).targets(in: store, since: Timestamp.now().adding(seconds: -3_600))
        let reader = TTSStorageReader(cluster: URL(string: storage.baseURL)!, application: "mtt-demo", apiKey: "NNSXS.TEST-KEY", transport: HTTPTransport(timeout: 10, connections: 1))
        let summary = await Fetcher(store: store).run(targets.map { ($0, reader) })

        #expect(summary.errors.isEmpty, "\(summary.errors)")
        #expect(summary.new == 5 && summary.broken == 0)
        #expect(summary.placed == 4, "\(summary.unplaceable)")
        #expect(summary.unplaceable == ["before the track starts": 1])
        let samples = try store.records.samples(session: run.session)
        #expect(samples.count == 5)
        #expect(samples.filter { $0.position != nil }.allSatisfy { $0.method == .interpolated })
        let outside = try #require(samples.first { $0.position == nil })
        #expect(outside.reason?.hasPrefix("before the track starts (") == true, "\(outside.reason ?? "")")
        // The Packet Broker uplink keeps the forwarder's gateway.
        let uplinks = try samples.compactMap { sample -> Uplink? in
            guard case .uplink(let id) = sample.subject else { return nil }
            return try store.records.uplink(id)
        }
        #expect(uplinks.contains { $0.receptions.contains { $0.gatewayID == "kpn-utrecht-3" && $0.viaPacketBroker } })
    }
}

/// A count that callbacks on other threads add to.
final class Tally: Sendable {
    private let value = Atomic<Int>(0)
    func add() { value.add(1, ordering: .relaxed) }
    var count: Int { value.load(ordering: .relaxed) }
}
