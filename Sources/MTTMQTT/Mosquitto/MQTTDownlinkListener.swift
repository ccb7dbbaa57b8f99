import MTTCore
import Synchronization

/// Hears the downlinks queued on a broker for a network's devices, as a simulated device would get
/// them: the simulated field testers read their replies here.
public final class MQTTDownlinkListener: Sendable {
    private let client: MosquittoClient
    private let closed = Mutex(false)
    private let heard: AsyncStream<Downlink>.Continuation
    public let downlinks: AsyncStream<Downlink>

    public init(settings: MQTTSettings, server: NetworkServer) throws(MQTTError) {
        let client = try MosquittoClient(clientID: settings.clientID + "-heard-down", settings: settings)
        (downlinks, heard) = AsyncStream.makeStream(of: Downlink.self, bufferingPolicy: .bufferingNewest(256))
        let topics = server.downlinkTopics(settings.username ?? TTNUplinkPublisher.demoUsername)
        let heard = self.heard
        // Subscribed at each connection: libmosquitto reconnects by itself on its thread.
        client.setHandlers(.init(
            connected: { [weak client] rc in
                guard rc == 0, let client else { return }
                for topic in topics { client.subscribe(topic) }
            },
            message: { topic, payload in
                if let downlink = server.decodeDownlink(topic, payload) { heard.yield(downlink) }
            }))
        do {
            try client.check(client.connect(settings.endpoint, keepAlive: settings.keepAlive), "connect to \(settings.endpoint.host):\(settings.endpoint.port)")
            try client.check(client.startLoopThread(), "start the MQTT network thread")
        } catch {
            client.destroy()
            throw error
        }
        self.client = client
    }

    public func close() {
        let wasOpen = closed.withLock { c in
            defer { c = true }
            return !c
        }
        guard wasOpen else { return }
        heard.finish()
        client.disconnect()
        client.stopLoopThread()
    }

    deinit {
        close()
        client.destroy()
    }
}
