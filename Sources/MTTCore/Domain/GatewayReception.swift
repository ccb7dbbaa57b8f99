/// One gateway antenna that heard an uplink (one entry of TTN's `rx_metadata`).
public struct GatewayReception: Sendable, Hashable, Codable {
    /// The id of a reception whose message named no gateway; never uploaded as a gateway.
    public static let unknownID = "unknown"
    /// What The Things Stack calls a Packet Broker reception whose forwarder it does not name.
    public static let packetBrokerID = "packetbroker"

    /// A real gateway's own id: TTN Mapper is sent only receptions that have one.
    public var namesAGateway: Bool { gatewayID != Self.unknownID && gatewayID != Self.packetBrokerID && !gatewayID.isEmpty }

    public var gatewayID: String
    public var gatewayEUI: String?
    /// dBm
    public var rssi: Double?
    /// dBm
    public var channelRSSI: Double?
    /// dBm
    public var signalRSSI: Double?
    /// dB
    public var snr: Double?
    /// The gateway's receive time, when it has a GPS or the network supplies one.
    public var time: Timestamp?
    /// The concentrator's free-running microsecond counter.
    public var concentratorTimestamp: UInt32?
    public var channelIndex: Int?
    public var antennaIndex: Int?
    /// Only present for gateways whose owners made the location public.
    public var location: GeoPoint?
    /// Heard through Packet Broker (a peered network), not a gateway of the application's own cluster.
    public var viaPacketBroker: Bool

    public init(
        gatewayID: String, gatewayEUI: String? = nil, rssi: Double? = nil, channelRSSI: Double? = nil,
        signalRSSI: Double? = nil, snr: Double? = nil, time: Timestamp? = nil,
        concentratorTimestamp: UInt32? = nil, channelIndex: Int? = nil, antennaIndex: Int? = nil,
        location: GeoPoint? = nil, viaPacketBroker: Bool = false
    ) {
        self.gatewayID = gatewayID
        self.gatewayEUI = gatewayEUI
        self.rssi = rssi
        self.channelRSSI = channelRSSI
        self.signalRSSI = signalRSSI
        self.snr = snr
        self.time = time
        self.concentratorTimestamp = concentratorTimestamp
        self.channelIndex = channelIndex
        self.antennaIndex = antennaIndex
        self.location = location
        self.viaPacketBroker = viaPacketBroker
    }
}
