/// A subscription to some topics on an MQTT server. Each `events()` call opens its own connection;
/// ending the iteration disconnects it.
public struct MQTTSubscription: Sendable {
    public let settings: MQTTSettings
    public let topics: [String]

    public init(settings: MQTTSettings, topics: [String]) {
        self.settings = settings
        self.topics = topics
    }

    public func events() -> AsyncStream<MQTTEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: MQTTEvent.self)
        do {
            let session = try MosquittoSession(settings: settings, topics: topics, continuation: continuation)
            continuation.onTermination = { _ in session.stop() }
            session.start()
        } catch {
            continuation.yield(.failed(reason: error.description))
            continuation.finish()
        }
        return stream
    }
}
