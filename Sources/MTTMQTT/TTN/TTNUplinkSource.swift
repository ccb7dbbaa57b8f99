import Logging
import MTTCore
import Synchronization

/// Uplinks heard by The Things Stack, over its MQTT server. Decoding happens here, off
/// libmosquitto's thread; a message that cannot be decoded is counted, logged once per topic,
/// and never stops the stream.
public struct TTNUplinkSource: UplinkSource {
    public let subscription: MQTTSubscription
    public let counters: UplinkCounters

    public init(settings: MQTTSettings, topics: [String], counters: UplinkCounters = UplinkCounters()) {
        subscription = MQTTSubscription(settings: settings, topics: topics)
        self.counters = counters
    }

    public var description: String { subscription.settings.description }

    public func events() -> AsyncStream<UplinkEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: UplinkEvent.self)
        let task = Task { [subscription, counters] in
            let logger = Logger(label: "mtt.mqtt")
            var loggedTopics = Set<String>()
            let server = subscription.settings.endpoint.description
            for await event in subscription.events() {
                switch event {
                case .connected:
                    continuation.yield(.connected("\(server) \(subscription.topics.joined(separator: " "))"))
                case .lost(let reason):
                    continuation.yield(.lost(reason: reason))
                case .failed(let reason):
                    continuation.yield(.failed(reason: reason))
                case .message(let topic, let payload):
                    counters.update { $0.messages += 1 }
                    do {
                        switch try UplinkDecoder.decode(payload) {
                        case .uplink(let uplink):
                            counters.update { $0.uplinks += 1 }
                            continuation.yield(.uplink(uplink))
                        case .simulated:
                            counters.update { $0.simulated += 1 }
                        case .notAnUplink:
                            counters.update { $0.ignored += 1 }
                        }
                    } catch {
                        counters.update { $0.malformed += 1 }
                        if loggedTopics.insert(topic).inserted {
                            logger.warning("skipping a malformed message on \(topic): \(error) (further ones on this topic are only counted)")
                        }
                    }
                }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
