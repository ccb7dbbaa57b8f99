import Foundation
import MTTCore
import MTTMQTT
import TestSupport
import Testing

@Suite("TTN uplink decoding, mtt's own messages")
struct UplinkDecoderTests {
    @Test func threeGatewaysFieldByField() throws {
        let u = try TTNFixtures.uplink(try TTNFixtures.own("three-gateways.json"))
        #expect(u.deviceID == "mapper-node-1" && u.applicationID == "mtt-mapper")
        #expect(u.devEUI == "0004A30B001C0530" && u.devAddr == "260B1234")
        #expect(u.fPort == 1 && u.fCnt == 160)
        #expect(u.payload == Hex.bytes("02D6370E561C07")!)
        #expect(u.frequency == 867_100_000 && u.spreadingFactor == 10 && u.bandwidth == 125_000 && u.codingRate == "4/5")
        #expect(u.receivedAt == Timestamp(nanosecondsSinceEpoch: 1_782_036_903_498_765_432))
        #expect(u.airtime == 0.370688)
        #expect(u.networkID == "NS_TTS_V3://ttn@000013")
        #expect(u.receptions.count == 3)

        let dom = u.receptions[0]
        #expect(dom.gatewayID == "utrecht-dom" && dom.gatewayEUI == "B827EBFFFE000001")
        #expect(dom.rssi == -97 && dom.channelRSSI == -97 && dom.signalRSSI == -98.5 && dom.snr == 7.25)
        #expect(dom.time == Timestamp(nanosecondsSinceEpoch: 1_782_036_903_401_000_001))
        #expect(dom.concentratorTimestamp == 4_000_000_000 && dom.channelIndex == 3 && dom.antennaIndex == 0)
        #expect(dom.location == GeoPoint(latitude: 52.0907, longitude: 5.1214, altitude: 112))
        #expect(!dom.viaPacketBroker)

        let uithof = u.receptions[1]
        #expect(uithof.snr == -14.5 && uithof.antennaIndex == 1 && uithof.location == nil)

        let peered = u.receptions[2]
        // Packet Broker's forwarder names the real gateway, as TTN Mapper's ingest reads it.
        #expect(peered.viaPacketBroker && peered.gatewayID == "kpn-utrecht-7" && peered.gatewayEUI == "00800000A0001234")
        #expect(peered.time == nil && peered.rssi == -118)

        // The earliest gateway time, not the network server's, is when the node transmitted.
        #expect(u.earliestReceiveTime == Timestamp(nanosecondsSinceEpoch: 1_782_036_903_400_999_000))
    }

    /// mtt stores EUIs and addresses in capitals whatever case the network sent.
    /// A T-Beam with TTN Mapper's payload formatter: the formatter's output rides on the uplink
    /// whole, and says the same place as the raw bytes through the matching codec.
    @Test func aTrackersDecodedPayloadIsKeptWhole() throws {
        let u = try TTNFixtures.uplink(try TTNFixtures.own("tracker.json"))
        let decoded = try #require(u.decodedPayload)
        #expect(decoded["battery"] == .string("4.12") && decoded["flags"] == .array([.bool(true), .null]))
        let fromDecoded = try DecodedPositionReader.position(in: decoded)
        #expect(fromDecoded == PayloadPosition(latitude: 52.3654939, longitude: 4.8884979, altitude: 21, satellites: 8, hdop: 1.2))
        let fromBytes = try PositionCodec.ttnMapper9.position(in: PayloadFrame(u.payload, fPort: u.fPort))
        // 24 bits over 180° and 360°: 1.1 m and 2.4 m steps.
        #expect(abs(fromBytes.latitude - fromDecoded.latitude) < 1.1e-5 && abs(fromBytes.longitude - fromDecoded.longitude) < 2.2e-5)
        #expect(fromBytes.altitude == 21 && fromBytes.hdop == 1.2 && fromBytes.satellites == 8)
    }

    @Test func anUplinkWithoutAFormatterHasNoDecodedPayload() throws {
        #expect(try TTNFixtures.uplink(try TTNFixtures.own("three-gateways.json")).decodedPayload == nil)
    }

    @Test func lowerCaseIdentifiersAreStoredInCapitals() throws {
        let text = String(decoding: try TTNFixtures.own("three-gateways.json"), as: UTF8.self)
            .replacingOccurrences(of: "0004A30B001C0530", with: "0004a30b001c0530")
            .replacingOccurrences(of: "260B1234", with: "260b1234")
            .replacingOccurrences(of: "B827EBFFFE000001", with: "b827ebfffe000001")
        #expect(text.contains("0004a30b001c0530") && text.contains("260b1234") && text.contains("b827ebfffe000001"))
        let u = try TTNFixtures.uplink(Array(text.utf8))
        #expect(u.devEUI == "0004A30B001C0530" && u.devAddr == "260B1234")
        #expect(u.receptions.first?.gatewayEUI == "B827EBFFFE000001")
    }

    @Test func omittedZeroValuesReadAsZeroOrAbsent() throws {
        let u = try TTNFixtures.uplink(try TTNFixtures.own("zero-omitted.json"))
        #expect(u.fPort == 0 && u.fCnt == 0)
        #expect(u.payload.isEmpty)
        // TTS leaves out zeros (SPEC.md §3): an SNR that is not there is 0 dB, not unknown.
        #expect(u.receptions.first?.snr == 0 && u.receptions.first?.rssi == -110)
        #expect(u.receptions.first?.channelRSSI == 0 && u.receptions.first?.channelIndex == 0)
        #expect(u.codingRate == nil && u.airtime == nil && u.networkID == nil)
        #expect(u.receivedAt == TTNFixtures.ns("2026-06-21T10:16:00.25Z"))
    }

    @Test func preTTS322CodingRateInSettings() throws {
        let u = try TTNFixtures.uplink(try TTNFixtures.own("pre-3.22.json"))
        #expect(u.codingRate == "4/5")
        #expect(u.frequency == 904_300_000)
        // +01:00 is honoured: 12:00:00.6 at UTC+1 is 11:00:00.6 UTC.
        #expect(u.receivedAt == TTNFixtures.ns("2021-03-01T11:00:00.6Z"))
    }

    @Test func simulatedUplinksAreNotCoverage() throws {
        #expect(try UplinkDecoder.decode(try TTNFixtures.own("simulated.json")) == .simulated)
    }

    @Test func legacyV2() throws {
        let u = try TTNFixtures.uplink(try TTNFixtures.own("v2.json"))
        #expect(u.deviceID == "node-7" && u.applicationID == "nyc-mapper" && u.devEUI == "0004A30B00AABBCC")
        #expect(u.fPort == 1 && u.fCnt == 42)
        #expect(u.frequency == 904_300_000 && u.spreadingFactor == 9 && u.bandwidth == 125_000)
        #expect(u.airtime == 0.164864)
        #expect(u.receivedAt == TTNFixtures.ns("2018-05-01T14:41:00.123456789Z"))
        #expect(u.receptions.map(\.gatewayID) == ["eui-b827ebfffe000003"])
        #expect(u.receptions[0].location == GeoPoint(latitude: 40.6716, longitude: -73.9862, altitude: 12))
        guard case .telemetry(let p) = DecodedPayload(bytes: u.payload) else {
            Issue.record("format 05 payload not recognised")
            return
        }
        #expect(p.altitude == 4 && p.hdop == 1.09 && p.battery == 255)
    }

    @Test func withoutANetworkTimeTheArrivalIsTheYardstick() throws {
        let arrival = TTNFixtures.ns("2026-06-21T10:20:00Z")
        let withGateway = #"{"end_device_ids":{"device_id":"d"},"uplink_message":{"rx_metadata":[{"gateway_ids":{"gateway_id":"g"},"time":"2026-06-21T10:19:59.5Z"}]}}"#
        let bare = #"{"end_device_ids":{"device_id":"d"},"uplink_message":{}}"#
        let heard = try TTNFixtures.uplink(Array(withGateway.utf8), arrival: arrival)
        #expect(heard.receivedAt == arrival)
        #expect(heard.earliestReceiveTime == TTNFixtures.ns("2026-06-21T10:19:59.5Z"))
        #expect(try TTNFixtures.uplink(Array(bare.utf8), arrival: arrival).receivedAt == arrival)
    }

    /// Real gateways said 1970, 2.7 years early and 38 minutes ahead; one with a good clock
    /// heard the same uplink. Only the good one, or else the network server, dates the sample.
    @Test func gatewayClocksThatDisagreeWithTheNetworkServerAreNotBelieved() throws {
        func message(_ times: [String]) -> [UInt8] {
            let rx = times.enumerated().map { #"{"gateway_ids":{"gateway_id":"g\#($0.offset)"},"time":"\#($0.element)","rssi":-100}"# }
            return Array(#"{"end_device_ids":{"device_id":"d"},"received_at":"2026-06-21T10:20:00.40Z","uplink_message":{"rx_metadata":[\#(rx.joined(separator: ","))],"received_at":"2026-06-21T10:20:00.30Z"}}"#.utf8)
        }
        let server = TTNFixtures.ns("2026-06-21T10:20:00.30Z")
        let wrong = ["1970-01-01T00:00:01Z", "2023-10-10T10:20:00Z", "2026-06-21T10:58:00Z"]
        let onlyWrong = try TTNFixtures.uplink(message(wrong))
        #expect(onlyWrong.receivedAt == server)
        #expect(onlyWrong.earliestReceiveTime == server)
        let withGood = try TTNFixtures.uplink(message(wrong + ["2026-06-21T10:20:00.01Z"]))
        #expect(withGood.earliestReceiveTime == TTNFixtures.ns("2026-06-21T10:20:00.01Z"))
    }

    @Test func aGoZeroTimeFallsBackToTheTopLevelTime() throws {
        let text = #"{"end_device_ids":{"device_id":"d"},"received_at":"2026-06-21T10:20:00.40Z","uplink_message":{"received_at":"0001-01-01T00:00:00Z"}}"#
        #expect(try TTNFixtures.uplink(Array(text.utf8)).receivedAt == TTNFixtures.ns("2026-06-21T10:20:00.40Z"))
        let alone = #"{"end_device_ids":{"device_id":"d"},"uplink_message":{"received_at":"0001-01-01T00:00:00Z"}}"#
        #expect {
            try UplinkDecoder.decode(Array(alone.utf8))
        } throws: { error in
            "\(error)" == "uplink_message.received_at is out of range: 0001-01-01T00:00:00Z"
        }
    }

    @Test func placeholderEUIsAreNotKept() throws {
        let text = #"{"end_device_ids":{"device_id":"d","dev_eui":"YOUR_EUI","dev_addr":"xxxxxxxx"},"received_at":"2026-06-21T10:20:00Z","uplink_message":{"rx_metadata":[{"gateway_ids":{"gateway_id":"g","eui":"xxxxxxxxxxxxxxxx"}}]}}"#
        let u = try TTNFixtures.uplink(Array(text.utf8))
        #expect(u.devEUI == nil && u.devAddr == nil && u.receptions[0].gatewayEUI == nil)
    }

    @Test func otherMessagesAreNotUplinks() throws {
        let join = #"{"end_device_ids":{"device_id":"d"},"received_at":"2026-01-01T00:00:00Z","join_accept":{"session_key_id":"x"}}"#
        #expect(try UplinkDecoder.decode(Array(join.utf8)) == .notAnUplink)
        #expect(try UplinkDecoder.decode(Array("{}".utf8)) == .notAnUplink)
    }

    @Test(arguments: [
        ("{\"end_device_ids\":", "not JSON"),
        ("\u{0}\u{1}\u{FF}binary", "not JSON"),
        ("[1,2,3]", "is not a"),
        (#"{"end_device_ids":{"device_id":"d"},"uplink_message":{"f_cnt":"many","received_at":"2026-01-01T00:00:00Z"}}"#, "uplink_message.f_cnt is not a"),
        (#"{"end_device_ids":{"device_id":"d"},"uplink_message":{"received_at":"2026-01-01T00:00:00Z","settings":{"frequency":868100000}}}"#, "settings.frequency is not a"),
        (#"{"end_device_ids":{"device_id":"d"},"uplink_message":{"received_at":"2026-01-01T00:00:00Z","settings":{"frequency":"868.1"}}}"#, "settings.frequency is not a number of Hz"),
        (#"{"end_device_ids":{"device_id":"d"},"uplink_message":{"received_at":"yesterday"}}"#, "received_at is not an RFC 3339 time"),
        (#"{"end_device_ids":{"device_id":"d"},"uplink_message":{"received_at":"2026-01-01T00:00:00Z","frm_payload":"***"}}"#, "the payload is not base64"),
        (#"{"end_device_ids":{},"uplink_message":{"received_at":"2026-01-01T00:00:00Z"}}"#, "uplink without a device_id"),
        (#"{"end_device_ids":{"device_id":"d"},"uplink_message":{"received_at":"2026-01-01T00:00:00Z","consumed_airtime":"61ms"}}"#, "consumed_airtime is not a duration"),
        (#"{"end_device_ids":{"device_id":"d"},"uplink_message":{"received_at":"2026-01-01T00:00:00Z","consumed_airtime":"-0.5s"}}"#, "consumed_airtime is not a duration"),
        (#"{"end_device_ids":{"device_id":"d"},"uplink_message":{"received_at":"2026-01-01T00:00:00Z","consumed_airtime":"1e999s"}}"#, "consumed_airtime is not a duration"),
        (#"{"end_device_ids":{"device_id":"d"},"uplink_message":{"received_at":"2026-01-01T00:00:00Z","consumed_airtime":"0.5s\u0000"}}"#, "consumed_airtime is not a duration"),
        (#"{"end_device_ids":{"device_id":"d"},"uplink_message":{"received_at":"2026-01-01T00:00:00Z","consumed_airtime":"s"}}"#, "consumed_airtime is not a duration"),
        // Found by fuzzing: a v2 frequency beyond UInt64's Hz trapped the conversion and would have stopped a listener.
        (#"{"dev_id":"d","metadata":{"time":"2018-05-01T14:41:00Z","frequency":2.2e46}}"#, "metadata.frequency is not a frequency in MHz"),
        (#"{"dev_id":"d","metadata":{"time":"2018-05-01T14:41:00Z","frequency":-868.1}}"#, "metadata.frequency is not a frequency in MHz"),
    ])
    func malformedMessagesSayWhy(text: String, reason: String) {
        #expect {
            try UplinkDecoder.decode(Array(text.utf8))
        } throws: { error in
            let line = "\(error)"
            return line.contains(reason) && !line.contains("\n")
        }
    }
}
