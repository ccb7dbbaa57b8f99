import Logging
import MTTCore
import Synchronization

/// Uplinks heard by The Things Stack (or ChirpStack, `format`), over its MQTT server. Decoding
/// happens here, off libmosquitto's thread; a message that cannot be decoded is counted, logged
/// once per topic, and never stops the stream.
public struct TTNUplinkSource: UplinkSource {
    public let subscription: MQTTSubscription
    public let counters: UplinkCounters
    public let format: UplinkFormat
    public let limits: UplinkLimits
    /// Messages received but not yet decoded, for `queuedEvents()`: the rest of a burst waits in
    /// the broker. 1,024 stored no faster in `scripts/load` and held 2 MB more.
    public static let undecodedLimit = 256
    /// Uplinks decoded but not yet taken by the store, for `queuedEvents()`. This bounds a group
    /// commit: 256 stored 10 % fewer uplinks a second than 1,024 in `scripts/load`. On a slow
    /// machine the queues fill to their limits, and with 1,024 the listener's peak passed the
    /// shared Python listener's by up to 0.8 MB (scripts/referee-bench, issue 49); 512 holds about
    /// half a megabyte less.
    public static let decodedLimit = 512

    public init(
        settings: MQTTSettings, topics: [String], format: UplinkFormat = .theThingsStack, limits: UplinkLimits = UplinkLimits(),
        counters: UplinkCounters = UplinkCounters()
    ) {
        subscription = MQTTSubscription(settings: settings, topics: topics)
        self.format = format
        self.limits = limits
        self.counters = counters
    }

    public var description: String { subscription.settings.description }

    public func events() -> AsyncStream<UplinkEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: UplinkEvent.self)
        let task = Task { [subscription, counters, format, limits] in
            var relay = Relay(subscription: subscription, counters: counters, limits: limits)
            for await batch in subscription.events() {
                for event in batch {
                    if let out = relay.handle(event, decoded: Self.decoding(event, format)) { continuation.yield(out) }
                }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Bounded from end to end: at most `undecodedLimit` messages wait undecoded and `decodedLimit` decoded;
    /// beyond that libmosquitto stops reading and the broker holds the rest. Messages that arrive
    /// together are decoded on two threads at once, and handed on in their order.
    public func queuedEvents() -> UplinkEventQueue {
        let credits = MessageCredits(limit: Self.undecodedLimit)
        let limited = MQTTSubscription(settings: subscription.settings, topics: subscription.topics, credits: credits)
        let queue = DrainingQueue<UplinkEvent>(capacity: Self.decodedLimit)
        let task = Task { [counters, format, limits] in
            let (raw, pump) = DrainingQueue.pumping(batches: limited.events())
            defer { pump.cancel() }
            var relay = Relay(subscription: limited, counters: counters, limits: limits)
            while let batch = await raw.next() {
                var decoded = await Self.decode(batch, format)
                var out: [UplinkEvent] = []
                out.reserveCapacity(batch.count)
                for index in batch.indices {
                    // Each decoding is taken out of the array rather than copied: a copy of an uplink
                    // costs a reference count for each of its strings and arrays.
                    if let event = relay.handle(batch[index], decoded: decoded[index].take()) { out.append(event) }
                }
                await queue.send(contentsOf: out)
                credits.give(batch.count(where: { $0.payload != nil }))
            }
            queue.finish()
        }
        return UplinkEventQueue(queue: queue, stop: { task.cancel() })
    }

    /// Each message's decoding, in order; a large batch is split between two tasks.
    private static func decode(_ batch: [MQTTEvent], _ format: UplinkFormat) async -> [Result<UplinkDecoding, UplinkDecodeError>?] {
        guard batch.count >= 64 else { return batch.map { decoding($0, format) } }
        let middle = batch.count / 2
        async let first = batch[..<middle].map { decoding($0, format) }
        let second = batch[middle...].map { decoding($0, format) }
        return await first + second
    }

    /// A message's decoding; nil for connection events.
    private static func decoding(_ event: MQTTEvent, _ format: UplinkFormat) -> Result<UplinkDecoding, UplinkDecodeError>? {
        guard case .message(let topic, let payload) = event else { return nil }
        return Result { () throws(UplinkDecodeError) in try format.decode(topic: topic, payload) }
    }

    /// What the consumer hears of each MQTT event, with the counting and the once-per-topic warnings.
    private struct Relay {
        let subscription: MQTTSubscription
        let counters: UplinkCounters
        let limits: UplinkLimits
        var gate: NewGatewayGate
        var loggedLimits = Set<LeftOutOfUplink.Kind>()
        let logger = Logger(label: "mtt.mqtt")

        init(subscription: MQTTSubscription, counters: UplinkCounters, limits: UplinkLimits) {
            self.subscription = subscription
            self.counters = counters
            self.limits = limits
            gate = NewGatewayGate(perMinute: limits.newGatewaysPerMinute)
        }

        /// The uplink held to the physical limits and to `limits`: what is left out is counted,
        /// and each kind of reason said once.
        mutating func screened(_ uplink: Uplink, topic: String) -> Uplink {
            var (kept, problems) = uplink.screened(receptionLimit: limits.receptionsPerUplink)
            let gated = gate.admit(kept, at: .now())
            kept = gated.uplink
            if gated.leftOut > 0 {
                problems.append(.init(.tooManyNewGateways, "more than \(limits.newGatewaysPerMinute) gateways new to this run in a minute: \(gated.leftOut) receptions left out"))
            }
            guard !problems.isEmpty else { return kept }
            counters.update { c in c.leftOut += problems.count }
            for problem in problems {
                if loggedLimits.insert(problem.kind).inserted {
                    logger.warning("\(topic): \(problem) (further ones like it are only counted)")
                }
            }
            return kept
        }
        var loggedTopics = Set<String>()
        var loggedSimulated = false
        var loggedReasons = Set<String>()

        mutating func handle(_ event: MQTTEvent, decoded: consuming Result<UplinkDecoding, UplinkDecodeError>?) -> UplinkEvent? {
            switch event {
            case .connected:
                return .connected("\(subscription.settings.endpoint.description) \(subscription.topics.joined(separator: " "))")
            case .lost(let reason):
                return .lost(reason: reason)
            case .failed(let reason):
                return .failed(reason: reason)
            case .message(let topic, _):
                switch consume decoded {
                case .success(let decoding):
                    counters.update { c in
                        c.messages += 1
                        switch decoding {
                        case .uplink: c.uplinks += 1
                        case .simulated: c.simulated += 1
                        case .notAnUplink, .unsupported: c.ignored += 1
                        }
                    }
                    switch decoding {
                    case .uplink(let uplink): return .uplink(screened(uplink, topic: topic))
                    case .simulated:
                        if !loggedSimulated {
                            loggedSimulated = true
                            logger.notice("skipping a simulated uplink on \(topic) (the console's \"simulate uplink\" is not coverage; further ones are only counted)")
                        }
                        return nil
                    case .notAnUplink: return nil
                    case .unsupported(let reason):
                        if loggedReasons.insert(reason).inserted { logger.warning("skipping messages on \(topic): \(reason)") }
                        return nil
                    }
                case .failure(let error):
                    counters.update { c in
                        c.messages += 1
                        c.malformed += 1
                    }
                    if loggedTopics.insert(topic).inserted {
                        logger.warning("skipping a malformed message on \(topic): \(error) (further ones on this topic are only counted)")
                    }
                    return nil
                case nil:
                    return nil
                }
            }
        }
    }
}

extension MQTTEvent {
    /// A message's payload; nil for connection events.
    var payload: [UInt8]? {
        if case .message(_, let payload) = self { return payload }
        return nil
    }
}
