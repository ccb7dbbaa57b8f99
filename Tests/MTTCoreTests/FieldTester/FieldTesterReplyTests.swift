import Foundation
import MTTCore
import TestSupport
import Testing

/// Issue 44: the field tester's 6-byte reply against the bytes `Fixtures/fieldtester/make_replies.py`
/// works out from SPEC §10.2 on its own; and which uplinks get one, at most the day's cap.
@Suite("Field testers: the reply")
struct FieldTesterReplyTests {
    struct Case: Decodable, CustomTestStringConvertible, Sendable {
        struct Gateway: Decodable, Sendable {
            var id: String
            var rssi: Double
            var lat: Double?
            var lon: Double?
        }
        var name: String
        var f_cnt: UInt32
        var position: [Double]?
        var gateways: [Gateway]
        var reply: String
        var testDescription: String { name }

        var uplink: Uplink {
            Uplink(deviceID: "wio-1", devEUI: "2CF7F1C0440001E1", fPort: 1, fCnt: f_cnt, receivedAt: Timestamp(secondsSinceEpoch: 1_790_000_000),
                   receptions: gateways.map { g in
                       GatewayReception(gatewayID: g.id, rssi: g.rssi, location: g.lat.flatMap { lat in g.lon.map { GeoPoint(latitude: lat, longitude: $0) } })
                   })
        }
    }

    static let cases: [Case] = {
        let data = FileManager.default.contents(atPath: FixtureFiles.own("fieldtester/replies.json")) ?? Data()
        return (try? JSONDecoder().decode([Case].self, from: data)) ?? []
    }()

    @Test func theFixturesAreThere() {
        #expect(Self.cases.count == 10)
        #expect(Self.cases.first?.reply == "2C527F058003", "SPEC §10.2's own example")
    }

    @Test(arguments: cases)
    func eachReplyIsTheBytesWorkedOutFromTheSpec(_ c: Case) {
        let position = c.position.map { GeoPoint(latitude: $0[0], longitude: $0[1]) }
        let reply = FieldTesterReply(to: c.uplink, from: position)
        #expect(Hex.string(reply.bytes) == c.reply)
        #expect((reply.reason == nil) == (reply.bytes[3] != 0), "\(reply.reason ?? "no reason") for \(Hex.string(reply.bytes))")
    }

    /// A gateway whose receptions say nothing of where it is, placed by what mtt knows of it.
    @Test func aGatewayIsPlacedByWhatTheStoreKnowsWhenItsReceptionSaysNothing() {
        let home = GeoPoint(latitude: 52.0907, longitude: 5.1214)
        let uplink = Uplink(deviceID: "wio-1", fPort: 1, fCnt: 4, receivedAt: Timestamp(secondsSinceEpoch: 0), receptions: [GatewayReception(gatewayID: "gw-known", rssi: -90)])
        let known = FieldTesterReply(to: uplink, from: home) { $0 == "gw-known" ? home.destination(metres: 2_000, bearing: 90) : nil }
        #expect(Hex.string(known.bytes) == "046E6E080801")
        #expect(FieldTesterReply(to: uplink, from: home).reason == "no gateway that heard it says where it is: distances left 0")
    }

    static func test(_ fCnt: UInt32, port: Int = 1, device: String = "wio-1") -> Uplink {
        // 43.6046921, 1.4441872 from the tester's own bytes (SPEC §9.3's example).
        Uplink(deviceID: device, devEUI: "2CF7F1C0440001E1", fPort: port, fCnt: fCnt, receivedAt: Timestamp(secondsSinceEpoch: 0),
               payload: Hex.bytes("1ECDAF810663047E0C08")!,
               receptions: [GatewayReception(gatewayID: "gw-1", rssi: -100, location: GeoPoint(latitude: 43.6046921, longitude: 1.4441872).destination(metres: 3_000, bearing: 0))])
    }

    @Test func testsAreAnsweredDiscoveriesAndOtherDevicesAreNot() {
        var desk = FieldTesterDesk(settings: .init(devices: ["WIO-1"]))
        let now = Timestamp(secondsSinceEpoch: 1_790_000_000)
        guard case .reply(let downlink, let reply) = desk.answer(Self.test(300), now: now) else {
            Issue.record("the test was not answered")
            return
        }
        #expect(downlink.fPort == 2 && downlink.deviceID == "wio-1" && downlink.payload == reply.bytes)
        // Its position read from its own bytes: the gateway 3 km north is 12 steps away.
        #expect(Hex.string(reply.bytes) == "2C64640C0C01")
        #expect(desk.answer(Self.test(301, port: 3), now: now) == .none, "a discovery uplink is mapped, never answered")
        #expect(desk.answer(Self.test(302, device: "wio-2"), now: now) == .none)
        var everyone = FieldTesterDesk(settings: .init(devices: ["+"]))
        if case .reply = everyone.answer(Self.test(5, device: "rak-9"), now: now) {} else { Issue.record("+ answers every device") }
    }

    @Test func theDailyCapHoldsAndSaysSoOnceADay() {
        var desk = FieldTesterDesk(settings: .init(devices: ["+"], dailyCap: 3))
        let morning = Timestamp(secondsSinceEpoch: 1_790_000_000)
        var answers: [FieldTesterDesk.Answer] = []
        for f in 0..<6 { answers.append(desk.answer(Self.test(UInt32(f)), now: morning.adding(seconds: Double(f)))) }
        #expect(answers.prefix(3).allSatisfy { if case .reply = $0 { true } else { false } })
        #expect(Array(answers.suffix(3)) == [.heldBack(first: true), .heldBack(first: false), .heldBack(first: false)])
        if case .reply = desk.answer(Self.test(7), now: morning.adding(seconds: 86_400)) {} else { Issue.record("a new day, a new cap") }
    }
}
