import FoundationEssentials
import Glibc
import Synchronization

/// Publishes messages to an MQTT server: at QoS 0 (how the simulated network plays The Things
/// Stack on a real broker, so the subscribing side runs for real), or acknowledged (QoS 1 over
/// MQTT 5, whose acknowledgement says when the server refused a message: a downlink the user has
/// no right to send).
public final class MQTTPublisher: Sendable {
    private let client: MosquittoClient
    public let settings: MQTTSettings
    private let acknowledged: Bool
    /// The CONNACK's code once it came (0: accepted), and the topics of messages not yet acknowledged.
    private let state = Mutex<(connack: Int32?, pending: [Int32: String])>((nil, [:]))
    private let refused: AsyncStream<String>.Continuation
    /// Messages the server refused, a line each (the topic and the server's reason).
    public let refusals: AsyncStream<String>

    /// Connects (blocking, up to the socket's own timeout) and starts libmosquitto's network thread.
    /// - Parameter purpose: ends its client id: two connections of one run under the same id would
    ///   throw each other off the broker.
    public init(settings: MQTTSettings, purpose: String = "pub", acknowledged: Bool = false) throws(MQTTError) {
        let client = try MosquittoClient(clientID: settings.clientID + "-" + purpose, settings: settings, version: acknowledged ? .v5 : .v311)
        (refusals, refused) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(16))
        self.client = client
        self.settings = settings
        self.acknowledged = acknowledged
        // Weakly: the client keeps its handlers until it is destroyed, in this object's deinit.
        client.setHandlers(.init(
            connected: { [weak self] rc in self?.state.withLock { $0.connack = rc } },
            published: { [weak self] mid, reason in self?.acknowledge(mid, reason) }))
        do {
            try client.startLooping(settings)
        } catch {
            client.destroy()
            throw error
        }
    }

    private func acknowledge(_ mid: Int32, _ reason: Int32) {
        let topic = state.withLock { $0.pending.removeValue(forKey: mid) }
        guard reason >= 0x80, let topic else { return }
        refused.yield("the MQTT server refused the message to \(topic): \(MosquittoClient.reasonText(reason))")
    }

    /// Waits up to `timeout` seconds for the server's answer to the connection: true once it
    /// accepted it, false when it refused it or said nothing.
    public func accepted(within timeout: Double) -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1_000))
        while ContinuousClock.now < deadline {
            if let code = state.withLock({ $0.connack }) { return code == 0 }
            usleep(10_000)
        }
        return false
    }

    public func publish(topic: String, payload: [UInt8]) throws(MQTTError) {
        guard acknowledged else {
            try client.check(client.publish(topic, payload), "publish to \(topic)")
            return
        }
        // Held before the publish: its acknowledgement may come before the call returns.
        try state.withLock { state throws(MQTTError) in
            let (result, mid) = client.publishAcknowledged(topic, payload)
            try client.check(result, "publish to \(topic)")
            state.pending[mid] = topic
        }
    }

    public func close() {
        guard client.stopLooping() else { return }
        refused.finish()
    }

    deinit {
        close()
        client.destroy()
    }
}
