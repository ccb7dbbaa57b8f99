/// A subscription to some topics on an MQTT server. Each `events()` call opens its own connection;
/// ending the iteration disconnects it.
public struct MQTTSubscription: Sendable {
    public let settings: MQTTSettings
    public let topics: [String]
    /// When set, messages wait in the broker while this many are unprocessed (see `MessageCredits`).
    public let credits: MessageCredits?

    public init(settings: MQTTSettings, topics: [String], credits: MessageCredits? = nil) {
        self.settings = settings
        self.topics = topics
        self.credits = credits
    }

    /// The connection's events in batches: whatever arrived in one pass of the network loop.
    public func events() -> AsyncStream<[MQTTEvent]> {
        let (stream, continuation) = AsyncStream.makeStream(of: [MQTTEvent].self)
        do {
            let session = try MosquittoSession(settings: settings, topics: topics, credits: credits, continuation: continuation)
            continuation.onTermination = { _ in session.stop() }
            session.start()
        } catch {
            continuation.yield([.failed(reason: error.description)])
            continuation.finish()
        }
        return stream
    }
}
