import MTTCore

/// Uplinks as a network stores them, for Storage Integration tests: one device, a frame a
/// second from `start`, heard by one or two gateways.
public enum StoredUplinks {
    public static let start = RFC3339.parse("2026-11-23T08:00:00Z")!

    public static func make(_ count: Int, device: String = "mapper-node-1", devEUI: String = "0004A30B001C0530", from: Timestamp = start) -> [Uplink] {
        (0..<count).map { i in
            var receptions = [GatewayReception(gatewayID: "gw-utrecht-1", gatewayEUI: "B827EBFFFE5B0001", rssi: -90 - Double(i % 30), snr: 7.5 - Double(i % 20), time: from.adding(seconds: Double(i)))]
            if i % 3 == 0 {
                receptions.append(GatewayReception(gatewayID: "gw-utrecht-2", gatewayEUI: "B827EBFFFE5B0002", rssi: -115, snr: -4.25, time: from.adding(seconds: Double(i))))
            }
            return Uplink(
                deviceID: device, applicationID: "mtt-demo", devEUI: devEUI, devAddr: "260B1234", fPort: 1, fCnt: UInt32(i),
                frequency: 868_100_000, spreadingFactor: 7, bandwidth: 125_000, codingRate: "4/5",
                receivedAt: from.adding(seconds: Double(i) + 0.25), payload: [0x02, UInt8(i & 0xFF)], receptions: receptions)
        }
    }
}
