import FoundationEssentials
import Glibc

/// `--network fake`: gateways around the simulated route and a radio model that decides which of
/// them hear a transmission, with what RSSI and SNR. Deterministic: the same transmission (DevEUI,
/// frame counter, position) always gets the same answer, so tests can compare with ground truth.
///
/// The model is log-distance path loss with log-normal shadowing; a gateway hears the packet when
/// the RSSI is above the SF's sensitivity and the SNR above its demodulation floor.
public struct SimulatedNetwork: Sendable {
    public struct Gateway: Sendable, Hashable {
        /// Every simulated gateway's EUI starts so (a Raspberry Pi's OUI, FFFE), which no real
        /// gateway's EUI in TTN's form does together with the `sim-gw-` id.
        public static let euiPrefix = "B827EBFFFE"

        public var id: String
        public var eui: String
        public var position: GeoPoint

        public init(id: String, eui: String, position: GeoPoint) {
            self.id = id
            self.eui = eui
            self.position = position
        }
    }

    public var gateways: [Gateway]
    public var seed: UInt64
    /// dBm at the node's antenna connector plus its gain.
    public var transmitPower = 14.0
    /// Path loss at 1 m for 915 MHz, dB.
    public var referenceLoss = 31.7
    public var pathLossExponent = 3.3
    /// Standard deviation of the shadowing, dB.
    public var shadowing = 7.0
    /// Thermal noise in 125 kHz plus a 6 dB receiver noise figure.
    public var noiseFloor = -117.0
    public var applicationID = "mtt-demo"

    public init(gateways: [Gateway], seed: UInt64 = 1) {
        self.gateways = gateways
        self.seed = seed
    }

    /// Three gateways at 1.5, 4 and 9 km from `center`, in different directions (urban path loss):
    /// a fake drive from there is heard by several, by fewer, and sometimes by none.
    public static func around(_ center: GeoPoint, seed: UInt64 = 1) -> SimulatedNetwork {
        SimulatedNetwork(gateways: [
            Gateway(id: "sim-gw-north", eui: Gateway.euiPrefix + "5A0001", position: center.offset(metres: 1_500, bearing: 10)),
            Gateway(id: "sim-gw-east", eui: Gateway.euiPrefix + "5A0002", position: center.offset(metres: 4_000, bearing: 100)),
            Gateway(id: "sim-gw-southwest", eui: Gateway.euiPrefix + "5A0003", position: center.offset(metres: 9_000, bearing: 225)),
        ], seed: seed)
    }

    /// Gateways placed by the user (`--fake-gateway LAT,LON`, repeatable): `sim-gw-1`, `sim-gw-2`, ….
    public static func placed(at positions: [GeoPoint], seed: UInt64 = 1) -> SimulatedNetwork {
        SimulatedNetwork(gateways: positions.enumerated().map { index, position in
            Gateway(id: "sim-gw-\(index + 1)", eui: Gateway.euiPrefix + "5B" + Hex.string([0, UInt8(truncatingIfNeeded: index + 1)]), position: position)
        }, seed: seed)
    }

    /// The uplink the network reports for a transmission, or nil when no gateway heard it.
    public func uplink(
        deviceID: String, devEUI: String, devAddr: String, frameCounter: UInt32, spreadingFactor: Int,
        payload: [UInt8], from position: GeoPoint, at time: Timestamp
    ) -> Uplink? {
        var random = SplitMix64(seed: seed ^ UInt64(frameCounter) &* 0x9E37_79B9 ^ UInt64(truncatingIfNeeded: devEUI.hashValueStable))
        let limits = LoRaReceiver.limits(spreadingFactor: spreadingFactor)
        let airtime = Self.airtime(payloadBytes: payload.count, spreadingFactor: spreadingFactor)
        var receptions: [GatewayReception] = []
        for (index, gateway) in gateways.enumerated() {
            let distance = max(1, position.distance(to: gateway.position))
            let loss = referenceLoss + 10 * pathLossExponent * log10(distance) + shadowing * Self.normal(&random)
            let level = (transmitPower - loss).rounded()
            let snr = min(10, ((level - noiseFloor) * 4).rounded() / 4)
            guard level >= limits.sensitivity, snr >= limits.snr else { continue }
            // A gateway's RSSI is the power in the channel, the frame's and the noise's together:
            // it stops near the noise floor, and RSSI + min(SNR, 0) is then the frame's own level.
            let rssi = (10 * log10(pow(10, level / 10) + pow(10, noiseFloor / 10))).rounded()
            // Light needs 3.3 µs per km; the gateway time stamps the end of the preamble.
            let arrival = time.adding(seconds: distance / 299_792_458 + 0.001 * Double(index))
            receptions.append(GatewayReception(
                gatewayID: gateway.id, gatewayEUI: gateway.eui, rssi: rssi, channelRSSI: rssi, snr: snr,
                time: arrival, concentratorTimestamp: UInt32(truncatingIfNeeded: arrival.nanosecondsSinceEpoch / 1000),
                channelIndex: Int(frameCounter % 8), antennaIndex: 0, location: gateway.position))
        }
        guard !receptions.isEmpty else { return nil }
        return Uplink(
            deviceID: deviceID, applicationID: applicationID, devEUI: devEUI, devAddr: devAddr, fPort: 1,
            fCnt: frameCounter, frequency: 903_900_000 + UInt64(frameCounter % 8) * 200_000,
            spreadingFactor: spreadingFactor, bandwidth: 125_000, codingRate: "4/5",
            receivedAt: time.adding(seconds: airtime + 0.05), airtime: airtime, payload: payload,
            networkID: "NS_TTS_V3://ttn@000013", receptions: receptions)
    }

    /// The LinkCheckAns the network server sends for an uplink it heard: how many gateways heard
    /// it, and the best one's SNR above the demodulation floor of its spreading factor (LoRaWAN's
    /// margin, 0…254 dB).
    public func linkCheck(answering uplink: Uplink) -> LinkCheck {
        guard let best = uplink.receptions.compactMap(\.snr).max() else { return .unanswered }
        let margin = (best - LoRaReceiver.limits(spreadingFactor: uplink.spreadingFactor ?? 12).snr).rounded()
        return LinkCheck(gateways: min(uplink.receptions.count, 255), margin: Int(min(max(margin, 0), 254))) ?? .unanswered
    }

    /// LoRa time on air (Semtech AN1200.13) for 125 kHz, CR 4/5, explicit header, CRC on, 8-symbol preamble.
    static func airtime(payloadBytes: Int, spreadingFactor sf: Int) -> Double {
        let symbol = pow(2, Double(sf)) / 125_000
        let lowRate = sf >= 11 ? 1.0 : 0.0
        let bytes = Double(payloadBytes + 13)  // LoRaWAN header, FPort, MIC
        let payloadSymbols = 8 + max(ceil((8 * bytes - 4 * Double(sf) + 28 + 16) / (4 * (Double(sf) - 2 * lowRate))) * 5, 0)
        return ((8 + 4.25) + payloadSymbols) * symbol
    }

    /// A standard normal deviate (Box–Muller).
    private static func normal(_ random: inout SplitMix64) -> Double {
        let u1 = max(Double.random(in: 0..<1, using: &random), 1e-12)
        let u2 = Double.random(in: 0..<1, using: &random)
        return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }
}

extension String {
    /// FNV-1a: Swift's own hash is seeded per process, and the network must answer the same every run.
    var hashValueStable: UInt64 { FNV1a.of(utf8) }
}
