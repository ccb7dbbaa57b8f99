import Logging
import Synchronization

/// `--network fake?testers=N`: N simulated field testers (a Wio tester, a RAK10701) driving the
/// simulated town, each sending a test on port 1 every 20 s (and a discovery uplink on port 3 every
/// tenth time), through the simulated network to the run's backend; each reply that comes back on
/// the broker is checked against what the tester sent and what the gateways heard, and said as the
/// tester's screen would show it. Everything it makes is simulated.
public final class SimulatedFieldTesters: Sendable {
    public let devices: [(deviceID: String, devEUI: String)]
    private let seed: UInt64
    /// Each tester's heard tests by frame counter, the newest 64: what a reply is checked against.
    private let heard = Mutex<[String: [UInt32: Uplink]]>([:])
    private let logger = Logger(label: "mtt.simulated-testers")

    public static let interval = 20
    static let kept = 64

    public init(count: Int, seed: UInt64 = 44) {
        devices = (0..<count).map { i in
            let number = String(i + 1)
            return ("sim-tester-" + String(repeating: "0", count: max(0, 3 - number.count)) + number,
                    "2CF7F1C0FFFE" + Hex.string([UInt8(i >> 8 & 0xFF), UInt8(i & 0xFF)]))
        }
        self.seed = seed
    }

    /// Drives every tester a simulated second at a time on `clock`, each test through `feed`'s
    /// radio model, until cancelled.
    public func run(through feed: SimulatedUplinkFeed, clock: any TimeSource) async {
        var frames = [UInt32](repeating: 0, count: devices.count)
        await SimulatedDrive.fleet(
            count: devices.count, seed: seed,
            start: { i in SimulatedDrive.defaultStart.offset(metres: 300 + Double(i % 5) * 400, bearing: Double(i * 71 % 360)) }, clock: clock
        ) { i, second, event in
            guard (second + i * 3) % Self.interval == 0, case .fix(let fix) = event else { return }
            frames[i] += 1
            let discovery = frames[i] % 10 == 0
            let position = PayloadPosition(latitude: fix.latitude, longitude: fix.longitude, altitude: fix.altitudeMSL, satellites: fix.satellites, hdop: fix.hdop)
            var frame = PositionCodec.fieldTester.frame(for: position)
            if discovery { frame = PayloadFrame(Array(frame.bytes.prefix(6)), fPort: 3) }
            guard var uplink = feed.network.uplink(
                deviceID: devices[i].deviceID, devEUI: devices[i].devEUI, devAddr: "26" + devices[i].devEUI.suffix(6), frameCounter: frames[i],
                spreadingFactor: 9, payload: frame.bytes, from: fix.point, at: fix.time)
            else { return }
            uplink.fPort = frame.fPort
            if !discovery { remember(uplink) }
            feed.deliver(uplink)
        }
    }

    private func remember(_ uplink: Uplink) {
        heard.withLock { heard in
            var mine = heard[uplink.deviceID, default: [:]]
            mine[uplink.fCnt ?? 0] = uplink
            if mine.count > Self.kept, let oldest = mine.keys.min() { mine[oldest] = nil }
            heard[uplink.deviceID] = mine
        }
    }

    /// What the tester makes of a downlink: its screen's line, or what was wrong with it.
    @discardableResult
    public func receive(_ downlink: Downlink) -> String {
        guard let device = devices.first(where: { $0.deviceID == downlink.deviceID || $0.devEUI.lowercased() == downlink.devEUI?.lowercased() })?.deviceID
        else { return "" }
        let line = check(downlink, device: device)
        logger.info("\(line)")
        return line
    }

    private func check(_ downlink: Downlink, device: String) -> String {
        let bytes = downlink.payload
        guard downlink.fPort == FieldTesterReply.fPort, bytes.count == 6 else {
            return "\(device): a downlink that is no reply (port \(downlink.fPort), \(bytes.count) bytes)"
        }
        let sent = heard.withLock { $0[device]?.values.filter { UInt8(truncatingIfNeeded: $0.fCnt ?? 0) == bytes[0] }.max { ($0.fCnt ?? 0) < ($1.fCnt ?? 0) } }
        guard let sent else { return "\(device): a reply to a test it did not send (sequence \(bytes[0]))" }
        let position = try? PositionCodec.fieldTester.position(in: PayloadFrame(sent.payload, fPort: 1))
        let expected = FieldTesterReply(to: sent, from: position.map { GeoPoint(latitude: $0.latitude, longitude: $0.longitude) }).bytes
        let shown = "\(CountText.of(Int(bytes[5]), "gateway")), \(Int(bytes[1]) - 200)…\(Int(bytes[2]) - 200) dBm, \(Double(bytes[3]) / 4)…\(Double(bytes[4]) / 4) km"
        guard bytes == expected else {
            return "\(device): the reply to f_cnt \(sent.fCnt ?? 0) is \(Hex.string(bytes)), not \(Hex.string(expected)) as heard"
        }
        return "\(device) shows the reply to f_cnt \(sent.fCnt ?? 0): \(shown), as heard"
    }
}
