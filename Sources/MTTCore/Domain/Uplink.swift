/// An uplink that the network heard, with every gateway reception.
public struct Uplink: Sendable, Hashable, Codable {
    public var id: Int64?
    public var deviceID: String
    public var applicationID: String?
    /// 16 upper-case hex digits.
    public var devEUI: String?
    /// 8 upper-case hex digits.
    public var devAddr: String?
    public var fPort: Int?
    public var fCnt: UInt32?
    /// Hz
    public var frequency: UInt64?
    public var spreadingFactor: Int?
    /// Hz
    public var bandwidth: Int?
    /// e.g. `4/5`
    public var codingRate: String?
    /// When the network server received it.
    public var receivedAt: Timestamp
    /// Seconds on air.
    public var airtime: Double?
    public var payload: [UInt8]
    /// `NS_TTS_V3://TENANT@NETID` style identity of the network, as TTN Mapper wants it.
    public var networkID: String?
    public var receptions: [GatewayReception]

    public init(
        id: Int64? = nil, deviceID: String, applicationID: String? = nil, devEUI: String? = nil,
        devAddr: String? = nil, fPort: Int? = nil, fCnt: UInt32? = nil, frequency: UInt64? = nil,
        spreadingFactor: Int? = nil, bandwidth: Int? = nil, codingRate: String? = nil,
        receivedAt: Timestamp, airtime: Double? = nil, payload: [UInt8] = [], networkID: String? = nil,
        receptions: [GatewayReception] = []
    ) {
        self.id = id
        self.deviceID = deviceID
        self.applicationID = applicationID
        self.devEUI = devEUI
        self.devAddr = devAddr
        self.fPort = fPort
        self.fCnt = fCnt
        self.frequency = frequency
        self.spreadingFactor = spreadingFactor
        self.bandwidth = bandwidth
        self.codingRate = codingRate
        self.receivedAt = receivedAt
        self.airtime = airtime
        self.payload = payload
        self.networkID = networkID
        self.receptions = receptions
    }

    /// The earliest gateway receive time, which is closest to when the node transmitted;
    /// the network server's own time otherwise.
    public var earliestReceiveTime: Timestamp {
        var earliest: Timestamp?
        for reception in receptions {
            if let time = reception.time, earliest.map({ time < $0 }) ?? true { earliest = time }
        }
        return earliest ?? receivedAt
    }

    /// Hz from the MHz that TTN v2 and MapTheThings data sets give; nil for a value that is no
    /// frequency (negative, not finite, beyond 2^64 Hz) instead of a trap.
    public static func frequency(megahertz: Double) -> UInt64? {
        UInt64(exactly: (megahertz * 1_000_000).rounded())
    }
}
