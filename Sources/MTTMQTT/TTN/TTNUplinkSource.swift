import Logging
import MTTCore
import Synchronization

/// Uplinks heard by The Things Stack, over its MQTT server. Decoding happens here, off
/// libmosquitto's thread; a message that cannot be decoded is counted, logged once per topic,
/// and never stops the stream.
public struct TTNUplinkSource: UplinkSource {
    public let subscription: MQTTSubscription
    public let counters: UplinkCounters
    /// Messages received but not yet handed on, for `queuedEvents()`.
    public static let pendingLimit = 1024

    public init(settings: MQTTSettings, topics: [String], counters: UplinkCounters = UplinkCounters()) {
        subscription = MQTTSubscription(settings: settings, topics: topics)
        self.counters = counters
    }

    public var description: String { subscription.settings.description }

    public func events() -> AsyncStream<UplinkEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: UplinkEvent.self)
        let task = Task { [subscription, counters] in
            await Self.relay(subscription, counters: counters) { continuation.yield($0) }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Bounded from end to end: at most `pendingLimit` messages wait undecoded and as many decoded;
    /// beyond that libmosquitto stops reading and the broker holds the rest.
    public func queuedEvents() -> UplinkEventQueue {
        let credits = MessageCredits(limit: Self.pendingLimit)
        let limited = MQTTSubscription(settings: subscription.settings, topics: subscription.topics, credits: credits)
        let queue = DrainingQueue<UplinkEvent>(capacity: Self.pendingLimit)
        let task = Task { [counters] in
            await Self.relay(limited, counters: counters, handled: { credits.give() }) { await queue.send($0) }
            queue.finish()
        }
        return UplinkEventQueue(queue: queue, stop: { task.cancel() })
    }

    /// Decodes the subscription's messages and hands on what the collector needs.
    private static func relay(
        _ subscription: MQTTSubscription, counters: UplinkCounters, handled: () -> Void = {},
        deliver: (UplinkEvent) async -> Void
    ) async {
        let logger = Logger(label: "mtt.mqtt")
        var loggedTopics = Set<String>()
        let server = subscription.settings.endpoint.description
        for await event in subscription.events() {
            switch event {
            case .connected:
                await deliver(.connected("\(server) \(subscription.topics.joined(separator: " "))"))
            case .lost(let reason):
                await deliver(.lost(reason: reason))
            case .failed(let reason):
                await deliver(.failed(reason: reason))
            case .message(let topic, let payload):
                defer { handled() }
                do {
                    let decoded = try UplinkDecoder.decode(payload)
                    counters.update { c in
                        c.messages += 1
                        switch decoded {
                        case .uplink: c.uplinks += 1
                        case .simulated: c.simulated += 1
                        case .notAnUplink: c.ignored += 1
                        }
                    }
                    if case .uplink(let uplink) = decoded { await deliver(.uplink(uplink)) }
                } catch {
                    counters.update { c in
                        c.messages += 1
                        c.malformed += 1
                    }
                    if loggedTopics.insert(topic).inserted {
                        logger.warning("skipping a malformed message on \(topic): \(error) (further ones on this topic are only counted)")
                    }
                }
            }
        }
    }
}
