import Synchronization

/// The simulated network as an uplink source: each transmission of a fake node goes through the
/// radio model, and what the gateways heard comes out as TTN would report it — straight to the
/// collector, or through `forward` (a real MQTT broker, so the MQTT path runs for real).
/// It remembers every transmission's outcome: the ground truth tests compare the database with.
public final class SimulatedUplinkFeed: UplinkSource, Sendable {
    public struct Truth: Sendable, Hashable {
        public var devEUI: String
        public var frameCounter: UInt32
        /// Nil when no gateway heard it.
        public var uplink: Uplink?
    }

    public let network: SimulatedNetwork
    private let clock: CollectClock
    private let forward: (@Sendable (Uplink) -> Void)?
    private let state = Mutex<(subscribers: [AsyncStream<UplinkEvent>.Continuation], truth: [Truth])>(([], []))

    public init(network: SimulatedNetwork, clock: CollectClock = .wall, forward: (@Sendable (Uplink) -> Void)? = nil) {
        self.network = network
        self.clock = clock
        self.forward = forward
    }

    public var description: String { "simulated network (\(network.gateways.count) gateways)" }

    public func events() -> AsyncStream<UplinkEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: UplinkEvent.self)
        continuation.yield(.connected(description))
        state.withLock { $0.subscribers.append(continuation) }
        return stream
    }

    public var truth: [Truth] { state.withLock { $0.truth } }

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
        let subscribers = state.withLock { s in
            s.truth.append(Truth(devEUI: devEUI, frameCounter: frameCounter, uplink: uplink))
            return s.subscribers
        }
        guard let uplink else { return nil }
        if let forward {
            forward(uplink)
        } else {
            for subscriber in subscribers { subscriber.yield(.uplink(uplink)) }
        }
        return uplink
    }
}
