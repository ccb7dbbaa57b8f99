import MTTCore
import TestSupport
import Testing

@Suite("Location payload (formats 01 and 02)")
struct LocationPayloadTests {
    /// SPEC.md section 1: the six coordinate bytes for each test point.
    @Test(arguments: [
        (0.0, 0.0, "000000000000"),
        (10.0, 10.0, "dc380e6e1c07"),
        (89.0, 179.0, "a6937eb1497f"),
        (-89.0, -179.0, "5a6c814fb680"),
    ])
    func specVectors(latitude: Double, longitude: Double, coordinates: String) throws {
        let payload = LocationPayload(format: .tracked, latitude: latitude, longitude: longitude)
        #expect(payload.bytes == [0x02] + Hex.bytes(coordinates)!)
        let decoded = try LocationPayload(bytes: [0x02] + Hex.bytes(coordinates)!)
        #expect(abs(decoded.latitude - latitude) < 1.0 / 93206)
        #expect(abs(decoded.longitude - longitude) < 1.0 / 46603)
    }

    @Test func serverVectorDecodesToBrooklyn() throws {
        let payload = try LocationPayload(bytes: Hex.bytes("01E9D7394F63CB")!)
        #expect(payload.format == .untracked)
        // SPEC.md gives the server's reading to four decimals, cut (not rounded): 40.67147…, −73.98637….
        #expect(payload.rawLatitude == 3_790_825 && payload.rawLongitude == -3_447_985)
        #expect(payload.latitude >= 40.6714 && payload.latitude < 40.6715)
        #expect(payload.longitude <= -73.9863 && payload.longitude > -73.9864)
    }

    @Test func trackedBLEWriteForSequenceOne() {
        // SPEC.md: a full tracked BLE write for ble_seq 1 at (10,10) is 01 02 dc380e 6e1c07.
        let write: [UInt8] = [1] + LocationPayload(format: .tracked, latitude: 10, longitude: 10).bytes
        #expect(Hex.string(write) == "0102DC380E6E1C07")
    }

    @Test func truncatesTowardZeroLikeTheApp() {
        // 0.00001 × 93206 = 0.93 → 0, and −0.00001 × 93206 = −0.93 → 0 (not −1 as flooring would give).
        #expect(LocationPayload(format: .tracked, latitude: 0.00001, longitude: -0.00001).bytes == [2, 0, 0, 0, 0, 0, 0])
        // 1.5 / 93206 above a whole step stays on that step.
        let lat = (1000.0 + 0.5) / 93206
        #expect(LocationPayload(format: .tracked, latitude: lat, longitude: 0).rawLatitude == 1000)
        #expect(LocationPayload(format: .tracked, latitude: -lat, longitude: 0).rawLatitude == -1000)
    }

    @Test func rejectsWrongLengthAndUnknownFormat() {
        #expect(throws: PayloadError.wrongLength(kind: "location payload", expected: 7, got: 6)) {
            try LocationPayload(bytes: [2, 0, 0, 0, 0, 0])
        }
        #expect(throws: PayloadError.unknownFormat(0x07)) {
            try LocationPayload(bytes: [7, 0, 0, 0, 0, 0, 0])
        }
    }

    @Test func roundTripOverTheWholeCoordinateRange() throws {
        var random = SplitMix64(seed: 0x6D74_7401)
        for _ in 0..<20_000 {
            let lat = Double.random(in: -90...90, using: &random)
            let lon = Double.random(in: -180...180, using: &random)
            let sent = LocationPayload(format: .tracked, latitude: lat, longitude: lon)
            let received = try LocationPayload(bytes: sent.bytes)
            #expect(received == sent)
            // Truncation loses less than one step, and always toward zero.
            #expect(abs(received.latitude) <= abs(lat) && abs(lat) - abs(received.latitude) < 1.0 / 93206)
            #expect(abs(received.longitude) <= abs(lon) && abs(lon) - abs(received.longitude) < 1.0 / 46603)
            #expect(received.latitude == 0 || (received.latitude < 0) == (lat < 0))
            #expect(received.longitude == 0 || (received.longitude < 0) == (lon < 0))
        }
    }

    @Test func extremesFitIn24Bits() throws {
        for (lat, lon) in [(90.0, 180.0), (-90.0, -180.0), (90.0, -180.0), (-90.0, 180.0)] {
            let decoded = try LocationPayload(bytes: LocationPayload(format: .untracked, latitude: lat, longitude: lon).bytes)
            #expect(abs(decoded.latitude - lat) < 1.0 / 93206)
            #expect(abs(decoded.longitude - lon) < 1.0 / 46603)
        }
    }
}
