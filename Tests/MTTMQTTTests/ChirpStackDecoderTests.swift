import Foundation
import MTTCore
import MTTMQTT
import TestSupport
import Testing

/// ChirpStack v4's MQTT events (issue 31), from messages written for these tests from ChirpStack's
/// `integration.proto` and protobuf's JSON mapping (Fixtures/chirpstack).
@Suite("ChirpStack uplink decoding")
struct ChirpStackDecoderTests {
    static let up = "application/17c82e96-be03-4f38-aef3-f83d48582d97/device/0004a30b001c0530/event/up"
    static let network = "NS_CHIRP://chirpstack.example.org"

    static func fixture(_ name: String) throws -> [UInt8] {
        try TTNFixtures.bytes(FixtureFiles.own("chirpstack/\(name)"))
    }

    static func decode(_ bytes: [UInt8], topic: String = up) throws -> UplinkDecoding {
        try ChirpStackDecoder.decode(topic: topic, bytes, networkID: network, arrival: Timestamp(nanosecondsSinceEpoch: 7))
    }

    static func uplink(_ name: String) throws -> Uplink {
        guard case .uplink(let uplink) = try decode(try fixture(name)) else { throw TTNFixtures.NotAnUplink() }
        return uplink
    }

    @Test func twoGatewaysFieldByField() throws {
        let u = try Self.uplink("two-gateways.json")
        #expect(u.deviceID == "mapper-node-1" && u.applicationID == "17c82e96-be03-4f38-aef3-f83d48582d97")
        #expect(u.devEUI == "0004A30B001C0530" && u.devAddr == "260B1234")
        #expect(u.fPort == 1 && u.fCnt == 160)
        #expect(u.payload == Hex.bytes("02D6370E561C07")!)
        #expect(u.frequency == 867_100_000 && u.spreadingFactor == 10 && u.bandwidth == 125_000 && u.codingRate == "4/5")
        #expect(u.receivedAt == RFC3339.parse("2026-06-21T10:15:03.498765Z"))
        #expect(u.networkID == Self.network)
        #expect(u.receptions.count == 2)

        let first = u.receptions[0]
        #expect(first.gatewayID == "b827ebfffe000001" && first.gatewayEUI == "B827EBFFFE000001")
        #expect(first.rssi == -97 && first.snr == 7.25 && first.channelIndex == 3 && first.antennaIndex == 0)
        #expect(first.time == RFC3339.parse("2026-06-21T10:15:03.401000001Z"))
        #expect(first.location == GeoPoint(latitude: 52.0907, longitude: 5.1214, altitude: 112))

        // No location (an empty object), no SNR (proto3 leaves out 0: it is 0, as for TTS), no gateway time.
        let second = u.receptions[1]
        #expect(second.gatewayEUI == "0016C001FF1A2B3C" && second.location == nil)
        #expect(second.snr == 0 && second.rssi == -119 && second.antennaIndex == 1 && second.time == nil)
        // The codec's output rides along whole: here a latitude alone, which places nothing.
        #expect(u.decodedPayload == .object(["latitude": .number(52.0907)]))
        #expect(throws: UnreadPosition(.malformed, "a latitude without a longitude")) {
            try DecodedPositionReader.position(in: u.decodedPayload ?? .null)
        }
    }

    /// What the simulated network publishes as ChirpStack reads back as the uplink it was.
    @Test func theEncoderWritesWhatTheDecoderReads() throws {
        let network = SimulatedNetwork.around(SimulatedDrive.defaultStart)
        let sent = try #require(network.uplink(
            deviceID: "fake-1", devEUI: "0004A30B001C0531", devAddr: "260B0001", frameCounter: 42, spreadingFactor: 9, payload: [2, 1, 2, 3],
            from: SimulatedDrive.defaultStart, at: Timestamp(nanosecondsSinceEpoch: 1_782_036_903_498_765_432)))
        #expect(!sent.receptions.isEmpty)
        let json = ChirpStackEncoder.json(sent, applicationID: ChirpStackTopics.demoApplication)
        guard case .uplink(let read) = try Self.decode(json) else { throw TTNFixtures.NotAnUplink() }
        #expect(read.deviceID == sent.deviceID && read.devEUI == sent.devEUI && read.devAddr == sent.devAddr && read.fCnt == sent.fCnt)
        #expect(read.payload == sent.payload && read.receivedAt == sent.receivedAt && read.networkID == Self.network)
        #expect(read.spreadingFactor == sent.spreadingFactor && read.bandwidth == sent.bandwidth && read.codingRate == sent.codingRate)
        #expect(read.frequency == sent.frequency)
        #expect(read.receptions.map(\.gatewayEUI) == sent.receptions.map(\.gatewayEUI))
        #expect(read.receptions.map(\.rssi) == sent.receptions.map(\.rssi) && read.receptions.map(\.snr) == sent.receptions.map(\.snr))
        #expect(read.receptions.map(\.time) == sent.receptions.map(\.time) && read.receptions.map(\.location) == sent.receptions.map(\.location))
    }

    @Test func fskHasNoSpreadingFactor() throws {
        let u = try Self.uplink("fsk.json")
        #expect(u.spreadingFactor == nil && u.bandwidth == nil && u.codingRate == nil)
        #expect(u.frequency == 868_800_000 && u.deviceID == "fsk-node" && u.receptions.count == 1)
    }

    /// The gateways heard the relay, not the device where the mapper was: heard, but no coverage.
    @Test func aRelayedUplinkIsHeardWithoutReceptions() throws {
        let u = try Self.uplink("relayed.json")
        #expect(u.devEUI == "0004A30B001C0532" && u.fCnt == 3 && u.receptions.isEmpty)
    }

    @Test func otherEventsAreNotUplinks() throws {
        let join = try Self.fixture("join.json")
        for kind in ["join", "status", "ack", "txack", "log", "location", "integration"] {
            let topic = Self.up.replacingOccurrences(of: "/event/up", with: "/event/\(kind)")
            #expect(try Self.decode(join, topic: topic) == .notAnUplink, "\(kind)")
        }
    }

    @Test func chirpStackVersion3IsSaidNotSupported() throws {
        let v3 = try Self.fixture("v3.json")
        for topic in [Self.up, "application/12/device/0004a30b001c0530/rx"] {
            guard case .unsupported(let reason) = try Self.decode(v3, topic: topic) else {
                Issue.record("\(topic): not refused as v3")
                continue
            }
            #expect(reason.contains("ChirpStack v3 is not supported"))
        }
    }

    @Test func protobufEventsAreSaidNotJSON() throws {
        // A protobuf-encoded UplinkEvent starts with its first field's tag (field 1, bytes: 0x0A).
        guard case .unsupported(let reason) = try Self.decode([0x0A, 0x24] + Array("3ac7e3c4-4401-4b8d-9386-a5c902f9202d".utf8)) else {
            Issue.record("protobuf taken for JSON")
            return
        }
        #expect(reason.contains("protobuf"))
    }

    @Test(arguments: [
        (#"{"deviceInfo":{"deviceName":"x"},"fCnt":1}"#, "uplink without a deviceInfo.devEui of 16 hex digits"),
        (#"{"deviceInfo":{"devEui":"0004a30b001c0530"},"fCnt":"many"}"#, "fCnt is not an integer"),
        (#"{"deviceInfo":{"devEui":"0004a30b001c0530"},"rxInfo":[{"rssi":"loud"}]}"#, "rxInfo[0].rssi is not a number"),
        (#"{"deviceInfo":{"devEui":"0004a30b001c0530"},"data":"%%%"}"#, "the payload is not base64"),
        (#"{"deviceInfo":"#, "not JSON"),
    ])
    func malformedEventsSayWhy(text: String, reason: String) {
        #expect {
            _ = try Self.decode(Array(text.utf8))
        } throws: { error in
            "\(error)".contains(reason)
        }
    }

    /// 16 MB of random bytes and of broken JSON cut from real events: each a reason, never a crash,
    /// never an uplink made up.
    @Test func sixteenMegabytesOfGarbage() throws {
        var generator = SplitMix64(seed: 31)
        let good = try Self.fixture("two-gateways.json")
        var read = 0, uplinks = 0
        while read < 16 << 20 {
            var bytes: [UInt8]
            if Bool.random(using: &generator) {
                bytes = (0..<Int.random(in: 1...4096, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            } else {
                bytes = good
                for _ in 0..<Int.random(in: 1...8, using: &generator) {
                    bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                }
            }
            read += bytes.count
            if case .uplink(let u)? = try? Self.decode(bytes) {
                uplinks += 1
                #expect(u.devEUI?.count == 16)
            }
        }
        #expect(read >= 16 << 20)
        // Some flipped bytes land in text mtt does not read: those are uplinks still.
        #expect(uplinks < 16 << 20 / good.count)
    }
}
