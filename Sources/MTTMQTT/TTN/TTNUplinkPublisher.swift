import MTTCore

/// Publishes uplinks on a real broker as The Things Stack does (its topic, its JSON), or as
/// ChirpStack does (`format`), so the simulated network's uplinks reach `mtt collect` through the
/// MQTT path it uses in the field.
public final class TTNUplinkPublisher: Sendable {
    /// The MQTT user of a demo or test broker that has no application.
    public static let demoUsername = "mtt-demo@ttn"

    private let publisher: MQTTPublisher
    private let username: String
    private let format: UplinkFormat

    public init(settings: MQTTSettings, format: UplinkFormat = .theThingsStack) throws(MQTTError) {
        publisher = try MQTTPublisher(settings: settings)
        username = settings.username ?? Self.demoUsername
        self.format = format
    }

    /// Sends `uplink` on its device's topic; a publish that fails is dropped, as the network would.
    /// Returns whether libmosquitto took it.
    @discardableResult
    public func publish(_ uplink: Uplink) -> Bool {
        let message = format.server.encode(uplink, username)
        return (try? publisher.publish(topic: message.topic, payload: message.payload)) != nil
    }

    public func close() {
        publisher.close()
    }
}
