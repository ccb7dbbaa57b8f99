import MTTCore

/// Queues downlinks at a network server through its MQTT integration (SPEC §10.1), on a connection
/// of its own beside the run's subscription: a publish never waits behind a backlog of uplinks.
public final class MQTTDownlinkSender: DownlinkSender {
    private let publisher: MQTTPublisher
    private let server: NetworkServer
    private let username: String
    private let replace: Bool

    /// - Parameter replace: The Things Stack: replace the device's queue (a reply to the newest
    ///   test, not the ones before), else push onto it.
    public init(settings: MQTTSettings, server: NetworkServer, replace: Bool = true) throws(MQTTError) {
        publisher = try MQTTPublisher(settings: settings)
        self.server = server
        username = settings.username ?? TTNUplinkPublisher.demoUsername
        self.replace = replace
    }

    public func send(_ downlink: Downlink) throws(DownlinkError) {
        let message = server.downlink(downlink, username, replace)
        do {
            try publisher.publish(topic: message.topic, payload: message.payload)
        } catch {
            throw DownlinkError("could not queue a downlink for \(downlink.deviceID) on \(message.topic): \(error)")
        }
    }

    public func close() {
        publisher.close()
    }
}
