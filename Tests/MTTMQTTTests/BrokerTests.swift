import Foundation
import MTTCore
import MTTMQTT
import TestSupport
import Testing

/// libmosquitto against a real mosquitto on 127.0.0.1.
@Suite("MQTT with a real broker")
struct BrokerTests {
    static let topic = "v3/mtt-mapper@ttn/devices/mapper-node-1/up"

    static func listen(_ settings: MQTTSettings, topics: [String] = [topic]) async -> (TTNUplinkSource, EventRecorder<UplinkEvent>) {
        let source = TTNUplinkSource(settings: settings, topics: topics)
        let recorder = EventRecorder<UplinkEvent>()
        await recorder.record(source.events())
        return (source, recorder)
    }

    static func settings(_ broker: MosquittoBroker, tls: Bool = false, host: String = "127.0.0.1") -> MQTTSettings {
        MQTTSettings(endpoint: MQTTEndpoint(host: host, port: broker.port, usesTLS: tls), reconnectDelay: 1...2)
    }

    static func isConnected(_ e: UplinkEvent) -> Bool { if case .connected = e { true } else { false } }
    static func isLost(_ e: UplinkEvent) -> Bool { if case .lost = e { true } else { false } }
    static func uplinks(_ events: [UplinkEvent]) -> [Uplink] {
        events.compactMap { if case .uplink(let u) = $0 { u } else { nil } }
    }

    static func message(fCnt: Int) -> String {
        #"{"end_device_ids":{"device_id":"mapper-node-1","dev_eui":"0004A30B001C0530"},"received_at":"2026-06-21T10:15:03Z","uplink_message":{"f_port":1,"f_cnt":\#(fCnt),"frm_payload":"AQ==","rx_metadata":[{"gateway_ids":{"gateway_id":"gw"},"rssi":-100,"snr":2.5}],"settings":{"data_rate":{"lora":{"bandwidth":125000,"spreading_factor":7}},"frequency":"868100000"}}}"#
    }

    @Test func anonymousSubscriptionReceivesDecodedUplinksAndCountsTheRest() async throws {
        let broker = try await MosquittoBroker.start()
        let (source, recorder) = await Self.listen(Self.settings(broker))
        #expect(await recorder.wait(timeout: 30) { $0.contains(where: Self.isConnected) })
        try await broker.publish(topic: Self.topic, lines: [
            Self.message(fCnt: 1),
            "not json at all",
            String(decoding: try TTNFixtures.own("simulated.json"), as: UTF8.self).replacingOccurrences(of: "\n", with: ""),
            #"{"end_device_ids":{"device_id":"mapper-node-1"},"uplink_message":{"f_cnt":"x"}}"#,
            Self.message(fCnt: 2),
        ])
        #expect(await recorder.wait(timeout: 30) { Self.uplinks($0).count == 2 })
        #expect(await eventually { source.counters.snapshot.messages == 5 })
        await recorder.stop()
        #expect(Self.uplinks(await recorder.events).map(\.fCnt) == [1, 2])
        let counts = source.counters.snapshot
        #expect(counts.messages == 5 && counts.uplinks == 2 && counts.malformed == 2 && counts.simulated == 1)
    }

    @Test func passwordFileRightPasswordWorksWrongOneSaysSo() async throws {
        let credentials = MosquittoBroker.Credentials(username: "mtt-mapper@ttn", password: "NNSXS.RIGHT")
        let broker = try await MosquittoBroker.start(credentials: credentials)

        var good = Self.settings(broker)
        good.username = credentials.username
        good.password = credentials.password
        let (_, ok) = await Self.listen(good)
        #expect(await ok.wait(timeout: 30) { $0.contains(where: Self.isConnected) })
        try await broker.publish(topic: Self.topic, lines: [Self.message(fCnt: 9)], credentials: credentials)
        #expect(await ok.wait(timeout: 30) { Self.uplinks($0).count == 1 })
        await ok.stop()

        var bad = good
        bad.password = "NNSXS.WRONG"
        let (_, refused) = await Self.listen(bad)
        #expect(await refused.wait(timeout: 30) { $0.contains { if case .failed = $0 { true } else { false } } })
        let events = await refused.events
        guard case .failed(let reason) = events.last else {
            Issue.record("expected a failure, got \(events)")
            return
        }
        #expect(reason.contains("refused the credentials for mtt-mapper@ttn"))
        #expect(reason.contains("CONNACK 5"))
        #expect(!reason.contains("NNSXS"))
    }

    @Test func tlsWithTheRightCAWorksAndAWrongCAIsRefused() async throws {
        let keys = TemporaryDirectory("mtt-tls")
        let serverFiles = try await TestCertificates.make(in: keys, name: "server")
        let otherFiles = try await TestCertificates.make(in: keys, name: "other")
        let broker = try await MosquittoBroker.start(tls: serverFiles)

        var right = Self.settings(broker, tls: true)
        right.caFile = serverFiles.caCertificate
        let (_, ok) = await Self.listen(right)
        #expect(await ok.wait(timeout: 30) { $0.contains(where: Self.isConnected) })
        await ok.stop()

        var wrong = right
        wrong.caFile = otherFiles.caCertificate
        let (_, refused) = await Self.listen(wrong)
        #expect(await refused.wait(timeout: 30) { $0.contains(where: Self.isLost) })
        await refused.stop()
        let events = await refused.events
        #expect(!events.contains(where: Self.isConnected))
        let reasons = events.compactMap { if case .lost(let r) = $0 { r } else { nil } }
        #expect(reasons.count == 1)
        #expect(reasons.first?.contains("TLS with 127.0.0.1:\(broker.port) failed") == true, "\(reasons)")
        #expect(reasons.first?.contains("certificate verify failed") == true, "\(reasons)")
        print("mtt: wrong CA reported as: \(reasons.first ?? "")")
    }

    @Test func missingCAFileIsAClearFailure() async throws {
        var settings = MQTTSettings(endpoint: MQTTEndpoint(host: "127.0.0.1", port: 8883, usesTLS: true))
        settings.caFile = "/nonexistent/ca.crt"
        let (_, recorder) = await Self.listen(settings)
        #expect(await recorder.waitUntilFinished(timeout: 60))
        #expect(await recorder.events == [.failed(reason: "cannot read the CA certificate /nonexistent/ca.crt")])
    }

    @Test func unknownHostAndRefusedConnectionSaySo() async throws {
        let (_, unknown) = await Self.listen(MQTTSettings(endpoint: MQTTEndpoint(host: "no-such-host.invalid", port: 1883, usesTLS: false)))
        #expect(await unknown.wait(timeout: 30) { $0.contains(where: Self.isLost) })
        await unknown.stop()
        #expect(await unknown.events.first == .lost(reason: "cannot find the MQTT server no-such-host.invalid (unknown host)"))

        let port = LoopbackPort.free()
        let (_, refused) = await Self.listen(MQTTSettings(endpoint: MQTTEndpoint(host: "127.0.0.1", port: port, usesTLS: false)))
        #expect(await refused.wait(timeout: 30) { $0.contains(where: Self.isLost) })
        await refused.stop()
        let refusals = await refused.events
        #expect(refusals.first == .lost(reason: "127.0.0.1:\(port) refused the connection (is the MQTT server running?)"), "\(refusals)")
    }

    @Test func brokerRestartMidStreamResubscribesAndKeepsReceiving() async throws {
        let broker = try await MosquittoBroker.start()
        let (_, recorder) = await Self.listen(Self.settings(broker))
        #expect(await recorder.wait(timeout: 30) { $0.contains(where: Self.isConnected) })
        try await broker.publish(topic: Self.topic, lines: (1...50).map { Self.message(fCnt: $0) })
        #expect(await recorder.wait(timeout: 30) { Self.uplinks($0).count == 50 })

        broker.stop()
        #expect(await recorder.wait(timeout: 30) { $0.contains(where: Self.isLost) })
        try await broker.restart()
        // As long as the reconnect takes (its delay doubles while the broker is down): beside a
        // second suite 20 s was not enough; that it comes back and resubscribes is what is tested.
        #expect(await recorder.wait(timeout: 120) { $0.filter(Self.isConnected).count == 2 })
        try await broker.publish(topic: Self.topic, lines: (51...100).map { Self.message(fCnt: $0) })
        #expect(await recorder.wait(timeout: 30) { Self.uplinks($0).count == 100 })
        await recorder.stop()
        #expect(Self.uplinks(await recorder.events).map(\.fCnt) == (1...100).map { UInt32($0) })
    }

    @Test func tenThousandUplinksInABurstAllArriveDecoded() async throws {
        let broker = try await MosquittoBroker.start()
        let (source, recorder) = await Self.listen(Self.settings(broker), topics: ["v3/mtt-mapper@ttn/devices/+/up"])
        #expect(await recorder.wait(timeout: 30) { $0.contains(where: Self.isConnected) })
        let count = 10_000
        let lines = (1...count).map { Self.message(fCnt: $0) }
        let started = Date()
        try await broker.publish(topic: Self.topic, lines: lines)
        let arrived = await recorder.wait(timeout: 60) { Self.uplinks($0).count == count }
        let elapsed = Date().timeIntervalSince(started)
        await recorder.stop()
        let received = Self.uplinks(await recorder.events).count
        #expect(arrived, "only \(received) of \(count) arrived")
        #expect(source.counters.snapshot.uplinks == count)
        print("mtt: \(count) uplinks published and decoded in \(String(format: "%.2f", elapsed)) s = \(Int(Double(count) / elapsed)) uplinks/s")
    }

    /// A slow reader holds back the broker instead of mtt's memory: at most a bounded number of
    /// uplinks ever wait in the queue, and every one arrives, in order.
    @Test func aSlowBatchReaderGetsEveryUplinkInBoundedBatches() async throws {
        let broker = try await MosquittoBroker.start()
        let source = TTNUplinkSource(settings: Self.settings(broker), topics: ["v3/mtt-mapper@ttn/devices/+/up"])
        let events = source.queuedEvents()
        defer { events.stop() }
        var uplinks: [UInt32] = []
        var largest = 0
        var connected = false
        while !connected, let batch = await events.queue.next() {
            connected = batch.contains { if case .connected = $0 { return true }; return false }
        }
        let count = 5_000
        try await broker.publish(topic: Self.topic, lines: (1...count).map { Self.message(fCnt: $0) })
        // Long enough for a loaded machine (beside a second suite the 5,000 took over a minute): a
        // lost uplink fails it whatever the time.
        let deadline = Date().addingTimeInterval(300)
        while uplinks.count < count, Date() < deadline, let batch = await events.queue.next() {
            largest = max(largest, batch.count)
            for case .uplink(let u) in batch { uplinks.append(u.fCnt ?? 0) }
            // Deliberate: a slow reader, so that the batches grow to their limit.
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(uplinks == (1...count).map { UInt32($0) })
        #expect(largest <= TTNUplinkSource.decodedLimit + 1, "a batch of \(largest)")
    }
}
