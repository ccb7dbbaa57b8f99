import Foundation
import MTTCore

/// Records for upload tests, with values chosen so a test can name what each request must carry.
public enum SyncTestData {
    /// 2016-05-25T15:30:26.713Z, the time of SPEC.md's transmission example.
    public static let start = Timestamp(nanosecondsSinceEpoch: 1_464_190_226_713_000_000)
    public static let devEUI = "0004A30B001C0530"

    /// The expected transmission of attempt `i` as SPEC.md section 2 writes it.
    public struct Transmission: Hashable, Sendable {
        public var lat: Double
        public var lon: Double
        public var alt: Double
        public var timestamp: String
        public var devEUI: String
        public var msgSeq: Int
    }

    /// A fix of good quality (9 satellites, HDOP 0.9, 4.2 m) unless told otherwise.
    public static func fix(
        at time: Timestamp, lat: Double, lon: Double, satellites: Int? = 9, hdop: Double? = 0.9, eph: Double? = 4.2
    ) -> Fix {
        Fix(
            time: time, latitude: lat, longitude: lon, altitudeHAE: 40, altitudeMSL: 10, eph: eph, epv: 6,
            hdop: hdop, satellites: satellites, speed: 5, track: 90, mode: .threeD, source: "fixed")
    }

    /// Confirmed active-mode attempts, one a second from `start`, f_cnt from 160, moving north-west,
    /// plus one failed attempt that must never be uploaded. Returns what each upload must say.
    @discardableResult
    public static func addConfirmedAttempts(_ count: Int, to store: Store) throws -> [Transmission] {
        let session = try store.sessions.startSession(mode: .active, at: start, SessionDescription(nodes: "fake"))
        var expected: [Transmission] = []
        for i in 0..<count {
            let time = start.adding(seconds: Double(i))
            let lat = 40.0 + Double(i) * 0.001, lon = -74.0 - Double(i) * 0.001
            let id = try store.records.record(Attempt(
                sessionID: session, node: "fake:1", payload: [0x01], fix: fix(at: time, lat: lat, lon: lon),
                sentAt: time, devEUI: devEUI))
            try store.records.confirmAttempt(id, frameCounter: UInt32(160 + i), at: time)
            expected.append(Transmission(
                lat: lat, lon: lon, alt: 10, timestamp: RFC3339.string(time, fractionDigits: 3), devEUI: devEUI, msgSeq: 160 + i))
        }
        let failed = try store.records.record(Attempt(
            sessionID: session, node: "fake:1", payload: [0x01], fix: fix(at: start, lat: 41, lon: -75), sentAt: start, devEUI: devEUI))
        try store.records.failAttempt(failed, reason: "no TX result")
        return expected
    }

    /// A heard uplink as TTN would report it, with two gateways.
    public static func uplink(fCnt: UInt32, at time: Timestamp, device: String = "mapper-1") -> Uplink {
        Uplink(
            deviceID: device, applicationID: "mtt-test", devEUI: devEUI, devAddr: "260B1234", fPort: 1, fCnt: fCnt,
            frequency: 868_100_000, spreadingFactor: 7, bandwidth: 125_000, codingRate: "4/5", receivedAt: time,
            airtime: 0.061696, payload: [0x02], networkID: "NS_TTS_V3://ttn@000013",
            receptions: [
                GatewayReception(
                    gatewayID: "gw-north", gatewayEUI: "B827EBFFFE000001", rssi: -97, channelRSSI: -97, signalRSSI: -96,
                    snr: 7.25, time: time.adding(seconds: -0.05), concentratorTimestamp: 1_234_567, channelIndex: 2,
                    antennaIndex: 0, location: GeoPoint(latitude: 40.1, longitude: -74.1, altitude: 30)),
                GatewayReception(
                    gatewayID: "gw-south", gatewayEUI: "B827EBFFFE000002", rssi: -118, snr: -9.5, channelIndex: 2),
            ])
    }

    /// Listener-mode samples, one a second, each of a heard uplink with two gateways, positioned
    /// from a track of fixes made by `quality` (index → fix figures).
    @discardableResult
    public static func addListenerSamples(
        _ count: Int, to store: Store, mode: CollectionMode = .listener, from first: Timestamp = start,
        quality: (Int) -> (satellites: Int?, hdop: Double?, eph: Double?) = { _ in (9, 0.9, 4.2) }
    ) throws -> [Int64] {
        let session = try store.sessions.startSession(mode: mode, at: first)
        return try store.batch { batch in
            try (0..<count).map { i in
                let time = first.adding(seconds: Double(i))
                let q = quality(i)
                let lat = 52.09 + Double(i) * 0.0001, lon = 5.12 + Double(i) * 0.0001
                try batch.record(fix(at: time, lat: lat, lon: lon, satellites: q.satellites, hdop: q.hdop, eph: q.eph), session: session)
                let uplinkID = try batch.record(uplink(fCnt: UInt32(i), at: time), session: session)
                return try batch.record(Sample(
                    sessionID: session, subject: .uplink(uplinkID), time: time,
                    position: GeoPoint(latitude: lat, longitude: lon, altitude: 3), method: .interpolated))
            }
        }
    }

    /// A matching-mode track of `count` fixes, one a second.
    @discardableResult
    public static func addMatchingTrack(_ count: Int, to store: Store) throws -> [Int64] {
        let session = try store.sessions.startSession(mode: .matching, at: start)
        return try store.batch { batch in
            try (0..<count).map { i in
                try batch.record(fix(at: start.adding(seconds: Double(i)), lat: 40.5 + Double(i) * 0.0001, lon: -73.9), session: session)
            }
        }
    }
}
