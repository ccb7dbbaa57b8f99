import MTTCore

/// Hears the downlinks queued on a broker for a network's devices, as a simulated device would get
/// them: the simulated field testers read their replies here.
public final class MQTTDownlinkListener: Sendable {
    private let client: MosquittoClient
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
            try client.startLooping(settings)
        } catch {
            client.destroy()
            throw error
        }
        self.client = client
    }

    public func close() {
        guard client.stopLooping() else { return }
        heard.finish()
    }

    deinit {
        close()
        client.destroy()
    }
}
