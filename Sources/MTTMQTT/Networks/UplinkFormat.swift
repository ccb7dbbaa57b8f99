import MTTCore

/// How a run's MQTT server writes its uplinks: a registered network server, with the network id
/// its uplinks carry where its messages name none.
public struct UplinkFormat: Sendable {
    public let server: NetworkServer
    public let networkID: String

    public init(server: NetworkServer, networkID: String = "") {
        self.server = server
        self.networkID = networkID
    }

    public static let theThingsStack = UplinkFormat(server: .theThingsStack)

    public static func chirpStack(networkID: String) -> UplinkFormat {
        UplinkFormat(server: .chirpStack, networkID: networkID)
    }

    /// One message, by its topic and payload.
    func decode(topic: String, _ payload: [UInt8]) throws(UplinkDecodeError) -> UplinkDecoding {
        try server.decode(topic, payload, networkID)
    }
}
