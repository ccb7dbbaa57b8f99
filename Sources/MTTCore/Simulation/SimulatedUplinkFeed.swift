import Synchronization

/// The simulated network as an uplink source: each transmission of a fake node goes through the
/// radio model, and what the gateways heard comes out as TTN would report it — straight to the
/// collector, or through `forward` (a real MQTT broker, so the MQTT path runs for real).
/// `transmit` returns what was heard, so a caller can see the network's decision.
public final class SimulatedUplinkFeed: UplinkSource, Sendable {
    public let network: SimulatedNetwork
    private let clock: any TimeSource
    private let forward: (@Sendable (Uplink) -> Void)?
    private let subscribers = Mutex<[AsyncStream<UplinkEvent>.Continuation]>([])

    public init(network: SimulatedNetwork, clock: any TimeSource = SystemClock(), forward: (@Sendable (Uplink) -> Void)? = nil) {
        self.network = network
        self.clock = clock
        self.forward = forward
    }

    public var description: String { "simulated network (\(CountText.of(network.gateways.count, "gateway")))" }

    public func events() -> AsyncStream<UplinkEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: UplinkEvent.self)
        continuation.yield(.connected(description))
        subscribers.withLock { $0.append(continuation) }
        return stream
    }

    /// A fake node transmitted `payload` (a location packet: the radio model reads where it was sent from).
    @discardableResult
    public func transmit(deviceID: String, devEUI: String, devAddr: String, frameCounter: UInt32, spreadingFactor: Int, payload: [UInt8]) -> Uplink? {
        let position: GeoPoint
        switch DecodedPayload(bytes: payload) {
        case .location(let p): position = GeoPoint(latitude: p.latitude, longitude: p.longitude)
        case .telemetry(let p): position = GeoPoint(latitude: p.latitude, longitude: p.longitude)
        default: return nil
        }
        let uplink = network.uplink(
            deviceID: deviceID, devEUI: devEUI, devAddr: devAddr, frameCounter: frameCounter,
            spreadingFactor: spreadingFactor, payload: payload, from: position, at: clock.now())
        guard let uplink else { return nil }
        deliver(uplink)
        return uplink
    }

    /// What the network heard, to the collector or the broker: a fake node's transmission, or a
    /// simulated tracker's.
    public func deliver(_ uplink: Uplink) {
        if let forward {
            forward(uplink)
        } else {
            for subscriber in subscribers.withLock({ $0 }) { subscriber.yield(.uplink(uplink)) }
        }
    }
}
