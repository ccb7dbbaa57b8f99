import MTTCore

/// Queues downlinks at a network server through its MQTT integration (SPEC §10.1), on a connection
/// of its own beside the run's subscription: a publish never waits behind a backlog of uplinks.
/// Where the server speaks MQTT 5 each downlink is acknowledged, so a refusal (no right to write
/// downlinks) is told; The Things Stack speaks MQTT 3.1.1 at QoS 0 only, where a refused downlink
/// is dropped unsaid.
public final class MQTTDownlinkSender: DownlinkSender {
    private let publisher: MQTTPublisher
    private let server: NetworkServer
    private let username: String
    private let replace: Bool

    /// - Parameter replace: The Things Stack: replace the device's queue (a reply to the newest
    ///   test, not the ones before), else push onto it.
    public init(settings: MQTTSettings, server: NetworkServer, replace: Bool = true) throws(MQTTError) {
        var publisher: MQTTPublisher?
        if server.speaksMQTT5 {
            let acknowledged = try MQTTPublisher(settings: settings, purpose: "down", acknowledged: true)
            // A server that turns MQTT 5 away is spoken to in 3.1.1.
            if acknowledged.accepted(within: 5) { publisher = acknowledged } else { acknowledged.close() }
        }
        if publisher == nil { publisher = try MQTTPublisher(settings: settings, purpose: "down") }
        self.publisher = publisher!
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

    public func refusals() -> AsyncStream<DownlinkError> {
        let lines = publisher.refusals
        return AsyncStream { continuation in
            let task = Task {
                for await line in lines {
                    continuation.yield(DownlinkError(line + ": the MQTT user needs the right to write downlinks (The Things Network: the API key's \"Write downlink application traffic\"; ChirpStack: the integration's ACL)"))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    public func close() {
        publisher.close()
    }
}
