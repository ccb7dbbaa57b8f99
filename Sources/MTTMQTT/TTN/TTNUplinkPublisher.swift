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
        switch format {
        case .theThingsStack:
            return (try? publisher.publish(topic: TTNTopics.uplink(username: username, device: uplink.deviceID), payload: UplinkEncoder.json(uplink))) != nil
        case .chirpStack:
            let application = ChirpStackTopics.demoApplication
            return (try? publisher.publish(
                topic: ChirpStackTopics.uplink(application: application, devEUI: uplink.devEUI ?? "0000000000000000"),
                payload: ChirpStackEncoder.json(uplink, applicationID: application))) != nil
        }
    }

    public func close() {
        publisher.close()
    }
}
