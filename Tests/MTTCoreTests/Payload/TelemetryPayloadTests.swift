import MTTCore
import TestSupport
import Testing

@Suite("Format 05 payload and payload dispatch")
struct TelemetryPayloadTests {
    /// Worked by hand: lat 40.6716 × 93206 = 3790837.2 → 0x39D7F5; lon −73.9862 × 46603 = −3447978.9
    /// → −3447978 = 0xCB6356 (24-bit two's complement); alt 4 = 0x0004; hdop 1.09 → 1090 = 0x0442;
    /// battery 255. All big-endian.
    static let vector = "0539D7F5CB6356000404 42FF".replacingOccurrences(of: " ", with: "")

    @Test func encodesTheHandWorkedVector() {
        let payload = TelemetryPayload(latitude: 40.6716, longitude: -73.9862, altitude: 4, hdop: 1.09, battery: 255)
        #expect(Hex.string(payload.bytes) == Self.vector)
    }

    @Test func decodesTheHandWorkedVector() throws {
        let payload = try TelemetryPayload(bytes: Hex.bytes(Self.vector)!)
        #expect(payload.rawLatitude == 3_790_837)
        #expect(payload.rawLongitude == -3_447_978)
        #expect(payload.altitude == 4)
        #expect(payload.hdop == 1.09)
        #expect(payload.battery == 255)
    }

    @Test func negativeAltitudeRoundTrips() throws {
        let payload = TelemetryPayload(latitude: -33.9, longitude: 151.2, altitude: -27, hdop: 0.8, battery: 93)
        let decoded = try TelemetryPayload(bytes: payload.bytes)
        #expect(decoded == payload)
        #expect(decoded.altitude == -27)
        #expect(abs(decoded.latitude - -33.9) < 1.0 / 93206)
    }

    @Test func dispatchesByFormatByte() {
        #expect(DecodedPayload(bytes: Hex.bytes("01E9D7394F63CB")!) != .unknown)
        if case .telemetry(let p) = DecodedPayload(bytes: Hex.bytes(Self.vector)!) {
            #expect(p.battery == 255)
        } else {
            Issue.record("format 05 not recognised")
        }
        #expect(DecodedPayload(bytes: [0x81, 1, 2]) == .test)
        #expect(DecodedPayload(bytes: [0x02, 1]) == .unknown)
        #expect(DecodedPayload(bytes: []) == .unknown)
        #expect(DecodedPayload(bytes: Hex.bytes("54656D70")!) == .unknown)
    }
}
