import Foundation
import MTTCore
import MTTMQTT
import TestSupport
import Testing

/// The Things Stack documentation's messages and a MapTheThings v2 message, from ../shared/fixtures.
@Suite("TTN uplink decoding, real messages", .enabled(if: FixtureFiles.sharedIsPresent, "\(FixtureFiles.sharedSkipReason)"))
struct RealTTNMessageTests {
    func shared(_ name: String) throws -> [UInt8] {
        try TTNFixtures.bytes(try #require(FixtureFiles.shared("ttn/\(name)")))
    }

    @Test func docsMQTTExample() throws {
        let u = try TTNFixtures.uplink(try shared("v3-uplink-docs-mqtt.json"))
        #expect(u.deviceID == "dev1" && u.applicationID == "app1")
        #expect(u.devEUI == "4200000000000000" && u.devAddr == "01DA1F15")
        #expect(u.fPort == 15 && u.fCnt == 0)  // f_cnt 0 is omitted by TTS
        #expect(String(decoding: u.payload, as: UTF8.self) == "Temperature = 0.0")
        #expect(u.frequency == 868_500_000 && u.spreadingFactor == 7 && u.bandwidth == 125_000)
        #expect(u.codingRate == "4/6")  // pre-3.22 layout: settings.coding_rate
        #expect(u.receptions.count == 1)
        let r = u.receptions[0]
        #expect(r.gatewayID == "eui-0242020000247803" && r.gatewayEUI == "0242020000247803")
        #expect(r.rssi == -35 && r.snr == 5 && r.concentratorTimestamp == 1_283_325_000)
        #expect(r.time == TTNFixtures.ns("2019-01-29T13:02:34.981Z"))
        // The example has no received_at anywhere, and its gateway's 2019 clock is far from the
        // arrival: the arrival stands in.
        #expect(u.receivedAt == u.earliestReceiveTime && u.receivedAt != TTNFixtures.ns("2019-01-29T13:02:34.981Z"))
    }

    @Test func docsStarterKitExample() throws {
        let u = try TTNFixtures.uplink(try shared("v3-uplink-docs-starter-kit.json"))
        #expect(u.deviceID == "eui-70b3d52dd600035a" && u.applicationID == "starter-kit")
        #expect(u.devEUI == "70B3D52DD600035A" && u.devAddr == "27FE87F6")
        #expect(u.fPort == 2 && u.fCnt == 14)
        #expect(u.payload == [UInt8](Data(base64Encoded: "sQAAEAHlANcB")!))
        #expect(u.frequency == 867_700_000 && u.spreadingFactor == 7 && u.codingRate == "4/5")
        #expect(u.airtime == 0.061696)
        #expect(u.receivedAt == TTNFixtures.ns("2025-04-16T11:54:13.787593298Z"))
        #expect(u.networkID == "NS_TTS_V3://docs-test-account@000013")
        let r = try #require(u.receptions.first)
        #expect(r.gatewayID == "ttig-52ec" && r.gatewayEUI == "58A0CBFFFE8052EC")
        #expect(r.rssi == -31 && r.channelRSSI == -31 && r.snr == 9.5 && r.concentratorTimestamp == 1_276_394_164)
        #expect(r.time == TTNFixtures.ns("2025-04-16T11:54:13.697237014Z"))
    }

    @Test func mapTheThingsV2DecodesAsFormat05() throws {
        let u = try TTNFixtures.uplink(try shared("v2-uplink-mapthethings.json"))
        #expect(u.deviceID == "mm-0001" && u.applicationID == "mtt" && u.devEUI == "006158A2D06A7A4E")
        #expect(u.fPort == 1 && u.fCnt == 1267)
        #expect(u.frequency == 904_100_000 && u.spreadingFactor == 7 && u.bandwidth == 125_000)
        #expect(u.airtime == 0.061696)
        let r = try #require(u.receptions.first)
        #expect(r.gatewayID == "eui-008000000000bcb0" && r.rssi == -78 && r.snr == 10.2 && r.channelIndex == 1)
        #expect(r.location == GeoPoint(latitude: 40.67146, longitude: -73.98627, altitude: -1))
        guard case .telemetry(let p) = DecodedPayload(bytes: u.payload) else {
            Issue.record("not format 05")
            return
        }
        #expect(abs(p.latitude - 40.67163) < 1e-4 && abs(p.longitude - -73.98625) < 1e-4)
        #expect(p.altitude == 4 && p.hdop == 1.09 && p.battery == 255)
    }
}
