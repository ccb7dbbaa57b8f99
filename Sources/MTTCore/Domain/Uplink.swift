/// An uplink that the network heard, with every gateway reception.
///
/// A value like any other, kept in one shared box that a change replaces: a listener hands each
/// uplink from the decoder to the store to the output, and copying its strings and arrays at every
/// step cost a reference count apiece, on cache lines another core had just used.
public struct Uplink: Sendable, Hashable, Codable {
    private struct Fields: Sendable, Hashable, Codable {
        var id: Int64?
        var deviceID: String
        var applicationID: String?
        var devEUI: String?
        var devAddr: String?
        var fPort: Int?
        var fCnt: UInt32?
        var frequency: UInt64?
        var spreadingFactor: Int?
        var bandwidth: Int?
        var codingRate: String?
        var receivedAt: Timestamp
        var airtime: Double?
        var payload: [UInt8]
        var networkID: String?
        var receptions: [GatewayReception]
    }

    private final class Box: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var box: Box

    /// Changes a field: mtt changes uplinks rarely (an id once stored), so a new box each time.
    private mutating func change(_ body: (inout Fields) -> Void) {
        var fields = box.fields
        body(&fields)
        box = Box(fields)
    }

    public var id: Int64? {
        get { box.fields.id }
        set { change { $0.id = newValue } }
    }

    public var deviceID: String {
        get { box.fields.deviceID }
        set { change { $0.deviceID = newValue } }
    }

    public var applicationID: String? {
        get { box.fields.applicationID }
        set { change { $0.applicationID = newValue } }
    }

    /// 16 upper-case hex digits.
    public var devEUI: String? {
        get { box.fields.devEUI }
        set { change { $0.devEUI = newValue } }
    }

    /// 8 upper-case hex digits.
    public var devAddr: String? {
        get { box.fields.devAddr }
        set { change { $0.devAddr = newValue } }
    }

    public var fPort: Int? {
        get { box.fields.fPort }
        set { change { $0.fPort = newValue } }
    }

    public var fCnt: UInt32? {
        get { box.fields.fCnt }
        set { change { $0.fCnt = newValue } }
    }

    /// Hz
    public var frequency: UInt64? {
        get { box.fields.frequency }
        set { change { $0.frequency = newValue } }
    }

    public var spreadingFactor: Int? {
        get { box.fields.spreadingFactor }
        set { change { $0.spreadingFactor = newValue } }
    }

    /// Hz
    public var bandwidth: Int? {
        get { box.fields.bandwidth }
        set { change { $0.bandwidth = newValue } }
    }

    /// e.g. `4/5`
    public var codingRate: String? {
        get { box.fields.codingRate }
        set { change { $0.codingRate = newValue } }
    }

    /// When the network server received it.
    public var receivedAt: Timestamp {
        get { box.fields.receivedAt }
        set { change { $0.receivedAt = newValue } }
    }

    /// Seconds on air.
    public var airtime: Double? {
        get { box.fields.airtime }
        set { change { $0.airtime = newValue } }
    }

    public var payload: [UInt8] {
        get { box.fields.payload }
        set { change { $0.payload = newValue } }
    }

    /// `NS_TTS_V3://TENANT@NETID` style identity of the network, as TTN Mapper wants it.
    public var networkID: String? {
        get { box.fields.networkID }
        set { change { $0.networkID = newValue } }
    }

    public var receptions: [GatewayReception] {
        get { box.fields.receptions }
        set { change { $0.receptions = newValue } }
    }

    public init(
        id: Int64? = nil, deviceID: String, applicationID: String? = nil, devEUI: String? = nil,
        devAddr: String? = nil, fPort: Int? = nil, fCnt: UInt32? = nil, frequency: UInt64? = nil,
        spreadingFactor: Int? = nil, bandwidth: Int? = nil, codingRate: String? = nil,
        receivedAt: Timestamp, airtime: Double? = nil, payload: [UInt8] = [], networkID: String? = nil,
        receptions: [GatewayReception] = []
    ) {
        box = Box(Fields(
            id: id, deviceID: deviceID, applicationID: applicationID, devEUI: devEUI, devAddr: devAddr,
            fPort: fPort, fCnt: fCnt, frequency: frequency, spreadingFactor: spreadingFactor,
            bandwidth: bandwidth, codingRate: codingRate, receivedAt: receivedAt, airtime: airtime,
            payload: payload, networkID: networkID, receptions: receptions))
    }

    public init(from decoder: any Decoder) throws {
        box = Box(try Fields(from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        try box.fields.encode(to: encoder)
    }

    public static func == (a: Uplink, b: Uplink) -> Bool {
        a.box === b.box || a.box.fields == b.box.fields
    }

    public func hash(into hasher: inout Hasher) {
        box.fields.hash(into: &hasher)
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
