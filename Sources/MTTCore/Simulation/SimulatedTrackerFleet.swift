import FoundationEssentials

/// `--network fake?trackers=N`: N simulated GPS trackers driving the simulated roads, each sending
/// its own position every 15 to 24 s, as such devices do: some with a decoded payload (what a
/// network's payload formatter makes, in TTN Mapper's key set or Cayenne LPP's nesting), the others
/// raw in each codec's bytes. The radio model decides who hears each frame; a tenth collide and
/// are heard by nobody, so frame-counter gaps appear; the last tracker of two or more sends a fix
/// from two satellites every third frame, which TTN Mapper's gates refuse. Everything it makes is
/// simulated: its session is marked so, and never goes to a public map.
public struct SimulatedTrackerFleet: Sendable {
    /// How one tracker sends its position.
    public enum Style: Sendable, Hashable {
        /// A decoded payload with TTN Mapper's keys (`latitude`, `longitude`, `altitude`, `hdop`, `sats`).
        case decoded
        /// A decoded payload as a Cayenne LPP formatter nests it (`gps_1`).
        case decodedLPP
        /// The raw bytes of a codec, read with `--codec`.
        case raw(PositionCodec)
    }

    public struct Tracker: Sendable {
        public var deviceID: String
        public var devEUI: String
        public var style: Style
        /// Seconds between frames.
        public var interval: Int
        /// Sends a fix from too few satellites every third frame.
        public var badFixes: Bool
    }

    public let trackers: [Tracker]
    private let seed: UInt64

    public init(count: Int, seed: UInt64 = 43) {
        let styles: [Style] = [.decoded] + PositionCodec.registered.map { .raw($0) } + [.decodedLPP]
        trackers = (0..<count).map { i in
            let number = String(i + 1)
            return Tracker(
                deviceID: "sim-tracker-" + String(repeating: "0", count: max(0, 3 - number.count)) + number,
                devEUI: "70B3D5FFFE" + Hex.string([UInt8(i >> 16 & 0xFF), UInt8(i >> 8 & 0xFF), UInt8(i & 0xFF)]),
                // The one with bad fixes says how many satellites it had: TTN Mapper's key set.
                style: count > 1 && i == count - 1 ? .decoded : styles[i % styles.count], interval: 15 + i % 10, badFixes: count > 1 && i == count - 1)
        }
        self.seed = seed
    }

    /// The codec of each raw tracker, for the listener to read them with.
    public var codecs: [String: PositionCodec] {
        var codecs: [String: PositionCodec] = [:]
        for tracker in trackers { if case .raw(let codec) = tracker.style { codecs[tracker.deviceID] = codec } }
        return codecs
    }

    /// Drives every tracker a simulated second at a time on `clock`, each frame through `feed`'s
    /// radio model, until cancelled.
    public func run(through feed: SimulatedUplinkFeed, clock: any TimeSource) async {
        var frames = [UInt32](repeating: 0, count: trackers.count)
        var random = SplitMix64(seed: seed)
        // Spread over the simulated town, each on its own roads.
        await SimulatedDrive.fleet(
            count: trackers.count, seed: seed, start: { i in SimulatedDrive.defaultStart.offset(metres: Double(i % 7) * 450, bearing: Double(i * 53 % 360)) },
            clock: clock
        ) { i, second, event in
            let tracker = trackers[i]
            // Staggered, so a fleet does not send in one burst.
            guard (second + i) % tracker.interval == 0, case .fix(let fix) = event else { return }
            frames[i] += 1
            let collided = Int.random(in: 0..<10, using: &random) == 0
            guard !collided, let uplink = uplink(tracker, frame: frames[i], fix: fix, feed.network) else { return }
            feed.deliver(uplink)
        }
    }

    /// The frame the network reports, or nil when no gateway heard it.
    func uplink(_ tracker: Tracker, frame: UInt32, fix: Fix, _ network: SimulatedNetwork) -> Uplink? {
        let bad = tracker.badFixes && frame % 3 == 0
        let position = PayloadPosition(
            latitude: fix.latitude, longitude: fix.longitude, altitude: fix.altitudeMSL.map { $0.rounded() },
            satellites: bad ? 2 : fix.satellites, hdop: fix.hdop)
        let sent: PayloadFrame
        var decoded: JSONValue?
        switch tracker.style {
        case .raw(let codec):
            sent = codec.frame(for: position)
        case .decoded, .decodedLPP:
            // What the device sent is a formatter's business: TTN Mapper's 10 bytes.
            sent = PositionCodec.ttnMapper9.frame(for: position)
            var place: [String: JSONValue] = [
                "latitude": .number(position.latitude), "longitude": .number(position.longitude),
                "altitude": .number(position.altitude ?? 0),
            ]
            if tracker.style == .decodedLPP {
                decoded = .object(["gps_1": .object(place), "battery_2": .number(3.9)])
            } else {
                place["hdop"] = .number(position.hdop ?? 1)
                place["sats"] = .number(Double(position.satellites ?? 0))
                decoded = .object(place)
            }
        }
        guard var uplink = network.uplink(
            deviceID: tracker.deviceID, devEUI: tracker.devEUI, devAddr: "26" + tracker.devEUI.suffix(6), frameCounter: frame,
            spreadingFactor: 9, payload: sent.bytes, from: fix.point, at: fix.time)
        else { return nil }
        uplink.fPort = sent.fPort
        uplink.decodedPayload = decoded
        return uplink
    }
}
