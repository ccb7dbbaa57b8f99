/// What a field tester (disk91's Wio tester, the RAK10701) shows on its screen, as the 6-byte
/// port-2 downlink its backend answers each test uplink with (SPEC §10.2): the frame counter it
/// matches, the weakest and strongest RSSI, the nearest and farthest gateway in 250 m steps, and
/// how many gateways heard it.
public struct FieldTesterReply: Sendable, Hashable {
    public static let fPort = 2
    /// Metres per step of bytes 3 and 4, and the Earth's radius the distances are taken on.
    static let step = 250.0
    static let earthRadius = 6_371_000.0

    public var sequence: UInt8
    /// dBm; nil when no reception said (then bytes 1 and 2 are 0, i.e. −200 dBm).
    public var minimumRSSI: Double?
    public var maximumRSSI: Double?
    /// Metres to the nearest and the farthest gateway whose position is known; nil when the
    /// device's own position or every gateway's is unknown (bytes 3 and 4 are 0, "invalid").
    public var minimumDistance: Double?
    public var maximumDistance: Double?
    public var gateways: Int
    /// Why the distances are missing, for the log; nil when they are there.
    public var reason: String?

    /// The reply to `uplink`, heard at `position` (the device's own, from its payload; nil when it
    /// had no valid fix), the gateways placed by their receptions or by `gatewayPosition`.
    public init(to uplink: Uplink, from position: GeoPoint?, gatewayPosition: (String) -> GeoPoint? = { _ in nil }) {
        sequence = UInt8(truncatingIfNeeded: uplink.fCnt ?? 0)
        let receptions = uplink.receptions
        let rssis = receptions.compactMap { $0.rssi ?? $0.channelRSSI }
        minimumRSSI = rssis.min()
        maximumRSSI = rssis.max()
        gateways = receptions.count
        guard let position else {
            reason = "the tester sent no valid position: distances left 0"
            return
        }
        let distances = receptions.compactMap { r in
            (r.location ?? (r.namesAGateway ? gatewayPosition(r.gatewayID) : nil)).map { position.distance(to: $0, radius: Self.earthRadius) }
        }
        guard !distances.isEmpty else {
            reason = "no gateway that heard it says where it is: distances left 0"
            return
        }
        minimumDistance = distances.min()
        maximumDistance = distances.max()
    }

    /// The six bytes, as the tester reads them.
    public var bytes: [UInt8] {
        func rssi(_ value: Double?) -> UInt8 { value.map { UInt8(clamping: Int(($0 + 200).rounded())) } ?? 0 }
        func steps(_ metres: Double?) -> UInt8 { metres.map { UInt8(min(128, max(1, Int(($0 / Self.step).rounded())))) } ?? 0 }
        return [sequence, rssi(minimumRSSI), rssi(maximumRSSI), steps(minimumDistance), steps(maximumDistance), UInt8(clamping: gateways)]
    }
}
