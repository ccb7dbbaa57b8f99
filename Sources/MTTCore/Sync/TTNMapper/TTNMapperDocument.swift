/// One TTN Mapper v4 upload: an uplink with every gateway that heard it and where the mapper was.
/// Times are integer nanoseconds and frequencies and bandwidths Hz, as SPEC.md section 4 has them.
public struct TTNMapperDocument: Codable, Sendable, Hashable {
    public var network_id: String
    public var app_id: String?
    public var dev_id: String
    public var dev_eui: String?
    public var time: Int64
    public var port: Int?
    public var counter: Int64?
    public var frequency: UInt64?
    public var modulation: String
    public var bandwidth: Int?
    public var spreading_factor: Int?
    public var coding_rate: String?
    public var gateways: [Gateway]
    public var latitude: Double
    public var longitude: Double
    public var altitude: Double?
    public var accuracy_meters: Double?
    public var satellites: Int?
    public var hdop: Double?
    public var accuracy_source: String
    /// Empty for the main map.
    public var experiment: String
    public var userid: String
    public var useragent: String

    public struct Gateway: Codable, Sendable, Hashable {
        public var gtw_id: String
        public var gtw_eui: String?
        public var antenna_index: Int?
        public var time: Int64?
        /// The concentrator's microsecond counter.
        public var timestamp: UInt32?
        public var channel: Int?
        public var rssi: Double?
        public var signal_rssi: Double?
        public var snr: Double?
        public var latitude: Double?
        public var longitude: Double?
        public var altitude: Double?
    }

    /// The Things Network's own network, for uplinks whose message named none (TTN v2 captures).
    public static let thingsNetworkID = "NS_TTS_V3://ttn@000013"

    public init(sample: QueuedSample, experiment: String?, userID: String) {
        let u = sample.uplink
        let fix = sample.nearestFix
        network_id = u.networkID ?? Self.thingsNetworkID
        app_id = u.applicationID
        dev_id = u.deviceID
        dev_eui = u.devEUI
        time = u.receivedAt.nanosecondsSinceEpoch
        port = u.fPort
        counter = u.fCnt.map(Int64.init)
        frequency = u.frequency
        modulation = "LORA"
        bandwidth = u.bandwidth
        spreading_factor = u.spreadingFactor
        coding_rate = u.codingRate
        // A reception that names no real gateway (Packet Broker without its forwarder) cannot be mapped.
        gateways = u.receptions.filter(\.namesAGateway).map { r in
            Gateway(
                gtw_id: r.gatewayID, gtw_eui: r.gatewayEUI, antenna_index: r.antennaIndex,
                time: r.time?.nanosecondsSinceEpoch, timestamp: r.concentratorTimestamp, channel: r.channelIndex,
                rssi: r.rssi, signal_rssi: r.signalRSSI, snr: r.snr, latitude: r.location?.latitude,
                longitude: r.location?.longitude, altitude: r.location?.altitude)
        }
        latitude = sample.position.latitude
        longitude = sample.position.longitude
        altitude = sample.position.altitude
        accuracy_meters = fix?.eph
        satellites = fix?.satellites
        hdop = fix?.hdop
        accuracy_source = "gps"
        self.experiment = experiment ?? ""
        userid = userID
        useragent = "mtt/\(MTTVersion.current)"
    }
}
