import Synchronization

/// An uplink that the network heard, with every gateway reception: `uplink.deviceID` and the rest
/// are the `Fields`.
///
/// A value like any other, kept in one shared box that a change replaces: a listener hands each
/// uplink from the decoder to the store to the output, and copying its strings and arrays at every
/// step cost a reference count apiece, on cache lines another core had just used.
@dynamicMemberLookup
public struct Uplink: Sendable, Hashable, Codable, CustomReflectable {
    public struct Fields: Sendable, Hashable, Codable {
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
        /// What the network's payload decoder made of `payload` (The Things Stack's
        /// `decoded_payload`, ChirpStack's `object`): where a tracker's position usually is.
        public var decodedPayload: JSONValue?
    }

    @usableFromInline
    final class Box: Sendable {
        @usableFromInline let fields: Fields
        /// `screened()` found these fields within `PhysicalLimits`: the store screens every uplink
        /// again whatever its entry point, and a listener's uplinks, screened once by their source,
        /// paid for it twice (2,000 of 138,000 instructions an uplink, scripts/ingest-profile).
        /// The fields never change, so a box once screened stays so; a changed uplink gets a new box.
        let withinLimits: Atomic<Bool>
        @usableFromInline init(_ fields: Fields, withinLimits: Bool = false) {
            self.fields = fields
            self.withinLimits = Atomic(withinLimits)
        }
    }

    @usableFromInline var box: Box

    /// Inlinable so that `uplink.deviceID` compiles to a load in every module, not a key path lookup.
    @inlinable
    public subscript<Value>(dynamicMember field: WritableKeyPath<Fields, Value>) -> Value {
        get { box.fields[keyPath: field] }
        // mtt changes uplinks rarely (an id once stored): a new box each time.
        set {
            var fields = box.fields
            fields[keyPath: field] = newValue
            box = Box(fields)
        }
    }

    public init(
        id: Int64? = nil, deviceID: String, applicationID: String? = nil, devEUI: String? = nil,
        devAddr: String? = nil, fPort: Int? = nil, fCnt: UInt32? = nil, frequency: UInt64? = nil,
        spreadingFactor: Int? = nil, bandwidth: Int? = nil, codingRate: String? = nil,
        receivedAt: Timestamp, airtime: Double? = nil, payload: [UInt8] = [], networkID: String? = nil,
        receptions: [GatewayReception] = [], decodedPayload: JSONValue? = nil
    ) {
        box = Box(Fields(
            id: id, deviceID: deviceID, applicationID: applicationID, devEUI: devEUI, devAddr: devAddr,
            fPort: fPort, fCnt: fCnt, frequency: frequency, spreadingFactor: spreadingFactor,
            bandwidth: bandwidth, codingRate: codingRate, receivedAt: receivedAt, airtime: airtime,
            payload: payload, networkID: networkID, receptions: receptions,
            decodedPayload: decodedPayload))
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

    /// Test failures and `dump` show the fields, not the box.
    public var customMirror: Mirror { Mirror(reflecting: box.fields) }

    /// How far a gateway's clock may stray from the network server's and still be believed. A
    /// gateway hears an uplink well under a second before the server does; real gateways have
    /// said 1970, years early and 38 minutes ahead, which would put the sample elsewhere.
    public static let gatewayClockTolerance: Int64 = 5_000_000_000

    /// When the node transmitted, as near as the network tells: the earliest gateway receive time
    /// that agrees with the network server's clock within `gatewayClockTolerance`; else the
    /// server's own time.
    public var earliestReceiveTime: Timestamp {
        Self.earliestReceiveTime(receivedAt: self.receivedAt, gatewayTimes: self.receptions.lazy.compactMap { $0.time })
    }

    /// The same for an uplink read as its times alone (placing many stored uplinks at once).
    public static func earliestReceiveTime(receivedAt: Timestamp, gatewayTimes: some Sequence<Timestamp>) -> Timestamp {
        let server = receivedAt.nanosecondsSinceEpoch
        var earliest: Timestamp?
        for time in gatewayTimes {
            let difference = time.nanosecondsSinceEpoch.subtractingReportingOverflow(server)
            guard !difference.overflow, abs(difference.partialValue) <= gatewayClockTolerance else { continue }
            if earliest.map({ time < $0 }) ?? true { earliest = time }
        }
        return earliest ?? receivedAt
    }

    /// Hz from the MHz that TTN v2 and MapTheThings data sets give; nil for a value that is no
    /// frequency (negative, not finite, beyond 2^64 Hz) instead of a trap.
    public static func frequency(megahertz: Double) -> UInt64? {
        UInt64(exactly: (megahertz * 1_000_000).rounded())
    }
}
