import Foundation
import MTTCore
import Testing

/// `Uplink` keeps its fields in a shared box; it must still behave as a value.
@Suite("Uplink as a value")
struct UplinkValueTests {
    let time = Timestamp(nanosecondsSinceEpoch: 1_750_000_000_000_000_000)

    func uplink() -> Uplink {
        Uplink(
            deviceID: "node-1", devEUI: "70B3D57ED0000001", fCnt: 7, frequency: 868_100_000,
            receivedAt: time, payload: [1, 2, 3],
            receptions: [GatewayReception(gatewayID: "gw-1", rssi: -80, snr: 7.5)])
    }

    @Test func changingACopyLeavesTheOriginalAsItWas() {
        let original = uplink()
        var copy = original
        copy.id = 42
        copy.fCnt = 8
        copy.payload.append(4)
        copy.receptions.append(GatewayReception(gatewayID: "gw-2", rssi: -100, snr: -3))
        #expect(original.id == nil && original.fCnt == 7 && original.payload == [1, 2, 3])
        #expect(original.receptions.map(\.gatewayID) == ["gw-1"])
        #expect(copy.id == 42 && copy.fCnt == 8 && copy.payload == [1, 2, 3, 4])
        #expect(copy.receptions.map(\.gatewayID) == ["gw-1", "gw-2"])
        #expect(copy != original)
    }

    @Test func equalFieldsAreEqualAndHashAlikeWhateverTheirBox() throws {
        let a = uplink(), b = uplink()
        #expect(a == b && a.hashValue == b.hashValue)
        var c = a
        c.deviceID = "node-2"
        #expect(c != a && Set([a, b, c]).count == 2)
        let decoded = try JSONDecoder().decode(Uplink.self, from: JSONEncoder().encode(c))
        #expect(decoded == c && decoded.deviceID == "node-2")
    }
}
