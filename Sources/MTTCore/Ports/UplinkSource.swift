/// What a network connection reports over time.
public enum UplinkEvent: Sendable, Hashable {
    case uplink(Uplink)
    /// Subscribed and listening (again, after `.lost`).
    case connected(String)
    /// The connection dropped; the source reconnects by itself and says `.connected` again.
    case lost(reason: String)
    /// The source gave up for good (refused credentials): the stream ends after this.
    case failed(reason: String)
}

/// Uplinks the network heard: The Things Stack over MQTT, or the simulated network.
public protocol UplinkSource: Sendable {
    var description: String { get }
    func events() -> AsyncStream<UplinkEvent>
    /// The same events for a batch reader. A source that can be slowed down (MQTT, by leaving
    /// messages in the broker) keeps the queue short instead of buffering a burst in memory.
    func queuedEvents() -> UplinkEventQueue
}

extension UplinkSource {
    public func queuedEvents() -> UplinkEventQueue {
        let (queue, pump) = DrainingQueue.pumping(events())
        return UplinkEventQueue(queue: queue, stop: { pump.cancel() })
    }
}
