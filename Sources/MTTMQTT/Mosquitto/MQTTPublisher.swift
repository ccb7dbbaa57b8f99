import FoundationEssentials
import Glibc
import Synchronization

/// Publishes messages (QoS 0) to an MQTT server: how the simulated network plays The Things Stack
/// on a real broker, so the subscribing side runs for real.
public final class MQTTPublisher: Sendable {
    private let client: MosquittoClient
    public let settings: MQTTSettings
    private let closed = Mutex(false)

    /// Connects (blocking, up to the socket's own timeout) and starts libmosquitto's network thread.
    public init(settings: MQTTSettings) throws(MQTTError) {
        let client = try MosquittoClient(clientID: settings.clientID + "-pub", settings: settings)
        do {
            try client.check(client.connect(settings.endpoint, keepAlive: settings.keepAlive), "connect to \(settings.endpoint.host):\(settings.endpoint.port)")
            try client.check(client.startLoopThread(), "start the MQTT network thread")
        } catch {
            client.destroy()
            throw error
        }
        self.client = client
        self.settings = settings
    }

    public func publish(topic: String, payload: [UInt8]) throws(MQTTError) {
        try client.check(client.publish(topic, payload), "publish to \(topic)")
    }

    public func close() {
        let wasOpen = closed.withLock { c in
            defer { c = true }
            return !c
        }
        guard wasOpen else { return }
        client.disconnect()
        client.stopLoopThread()
    }

    deinit {
        close()
        client.destroy()
    }
}
