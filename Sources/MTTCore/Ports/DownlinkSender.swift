/// A message for one device, queued at its network server for the receive windows after its next
/// uplink (class A).
public struct Downlink: Sendable, Hashable {
    public var deviceID: String
    public var devEUI: String?
    /// The application the device is in, as its uplinks named it (ChirpStack's topics need it).
    public var applicationID: String?
    public var fPort: Int
    public var payload: [UInt8]

    public init(deviceID: String, devEUI: String?, applicationID: String?, fPort: Int, payload: [UInt8]) {
        self.deviceID = deviceID
        self.devEUI = devEUI
        self.applicationID = applicationID
        self.fPort = fPort
        self.payload = payload
    }
}

/// Why a downlink did not go out, in a line.
public struct DownlinkError: Error, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// Where downlinks are sent: a network server's MQTT integration.
public protocol DownlinkSender: Sendable {
    /// Queues it; throws when it could not even be handed over.
    func send(_ downlink: Downlink) throws(DownlinkError)
    /// Downlinks the server refused after taking them (no right to send them), as it says so.
    func refusals() -> AsyncStream<DownlinkError>
}
