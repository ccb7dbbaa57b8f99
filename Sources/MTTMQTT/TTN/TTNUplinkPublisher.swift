import MTTCore

/// Publishes uplinks on a real broker as The Things Stack does (its topic, its JSON), so the
/// simulated network's uplinks reach `mtt collect` through the MQTT path it uses in the field.
public final class TTNUplinkPublisher: Sendable {
    /// The MQTT user of a demo or test broker that has no application.
    public static let demoUsername = "mtt-demo@ttn"

    private let publisher: MQTTPublisher
    private let username: String

    public init(settings: MQTTSettings) throws(MQTTError) {
        publisher = try MQTTPublisher(settings: settings)
        username = settings.username ?? Self.demoUsername
    }

    /// Sends `uplink` on its device's topic; a publish that fails is dropped, as the network would.
    /// Returns whether libmosquitto took it.
    @discardableResult
    public func publish(_ uplink: Uplink) -> Bool {
        (try? publisher.publish(topic: TTNTopics.uplink(username: username, device: uplink.deviceID), payload: UplinkEncoder.json(uplink))) != nil
    }

    public func close() {
        publisher.close()
    }
}
