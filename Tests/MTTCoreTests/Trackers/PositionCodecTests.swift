import Foundation
import MTTCore
import TestSupport
import Testing

/// Each codec against byte vectors encoded from SPEC §9.3's formulas by
/// `Fixtures/trackers/make_codec_vectors.py`, and the SPEC's own examples.
@Suite("Trackers: position codecs")
struct PositionCodecTests {
    struct Vector: Decodable, CustomTestStringConvertible, Sendable {
        var codec: String
        var fPort: Int?
        var hex: String
        var note: String
        var latitude: Double?
        var longitude: Double?
        var altitude: Double?
        var hdop: Double?
        var satellites: Int?
        var unread: String?
        /// Degrees; the SPEC prints most examples to 7 decimals.
        var tolerance: Double?

        var testDescription: String { "\(codec): \(note)" }
    }

    static let vectors: [Vector] = {
        let data = FileManager.default.contents(atPath: FixtureFiles.own("trackers/codec-vectors.json")) ?? Data()
        return (try? JSONDecoder().decode([Vector].self, from: data)) ?? []
    }()

    @Test func everyCodecHasVectorsOfEachKind() {
        for codec in PositionCodec.registered {
            let mine = Self.vectors.filter { $0.codec == codec.name }
            #expect(mine.contains { $0.unread == nil }, "\(codec.name): no vector with a position")
            #expect(mine.contains { $0.unread == "malformed" }, "\(codec.name): no short or broken frame")
        }
        #expect(Set(Self.vectors.map(\.codec)) == Set(PositionCodec.registered.map(\.name)))
    }

    @Test(arguments: vectors)
    func vectorDecodesAsTheSpecSays(_ vector: Vector) throws {
        let codec = try #require(PositionCodec.named(vector.codec))
        let frame = PayloadFrame(try #require(Hex.bytes(vector.hex)), fPort: vector.fPort)
        do {
            let position = try codec.position(in: frame)
            #expect(vector.unread == nil, "decoded \(position), expected \(vector.unread ?? "")")
            let tolerance = vector.tolerance ?? 5e-7
            #expect(abs(position.latitude - (vector.latitude ?? .nan)) < tolerance, "latitude \(position.latitude)")
            #expect(abs(position.longitude - (vector.longitude ?? .nan)) < tolerance, "longitude \(position.longitude)")
            #expect(Self.same(position.altitude, vector.altitude), "altitude \(String(describing: position.altitude))")
            #expect(Self.same(position.hdop, vector.hdop), "HDOP \(String(describing: position.hdop))")
            #expect(position.satellites == vector.satellites)
        } catch {
            #expect(error.kind.rawValue == vector.unread, "\(error.detail)")
            #expect(error.detail.hasPrefix(vector.codec + ": "), "the reason names the codec: \(error.detail)")
        }
    }

    /// Frames of every length from nothing to 20 bytes, of zeros and of 0xFF, through every codec:
    /// a reason for each, never a crash.
    @Test func anyLengthOfBytesGetsAPositionOrAReason() {
        for codec in PositionCodec.registered {
            for length in 0...20 {
                for fill: UInt8 in [0x00, 0x10, 0x88, 0xFF] {
                    for port in [nil, 1, 2, 3] as [Int?] {
                        do {
                            let position = try codec.position(in: PayloadFrame(Array(repeating: fill, count: length), fPort: port))
                            #expect(position.latitude.isFinite && position.longitude.isFinite)
                        } catch {
                            #expect(!error.detail.isEmpty)
                        }
                    }
                }
            }
        }
    }

    /// What the simulated trackers send is what each codec reads back, to its resolution: in every
    /// hemisphere, below sea level, at the edges of a minute.
    @Test(arguments: PositionCodec.registered.map(\.name))
    func eachCodecReadsBackWhatItsDevicesSend(_ name: String) throws {
        let codec = try #require(PositionCodec.named(name))
        let places = [
            PayloadPosition(latitude: 52.3654939, longitude: 4.8884979, altitude: 21, satellites: 9, hdop: 1.2),
            PayloadPosition(latitude: -33.8567844, longitude: -151.2152967, altitude: -12, satellites: 5, hdop: 2.5),
            PayloadPosition(latitude: 40.9999999, longitude: -73.9999999, altitude: 0, satellites: 12, hdop: 0.8),
            // The LGT-92 sends altitude and HDOP in hundredths, in 16 and 8 bits: ±327 m and 2.55 at most.
            PayloadPosition(latitude: -0.5, longitude: 179.5, altitude: 234, satellites: 4, hdop: 2.4),
        ]
        for place in places {
            let read = try codec.position(in: codec.frame(for: place))
            #expect(abs(read.latitude - place.latitude) < 2e-4 && abs(read.longitude - place.longitude) < 2e-4, "\(name): \(place) read as \(read)")
            if let altitude = read.altitude { #expect(abs(altitude - (place.altitude ?? 0)) <= 1, "\(name): \(place) read as \(read)") }
            if let satellites = read.satellites { #expect(satellites == place.satellites, "\(name)") }
            if let hdop = read.hdop { #expect(abs(hdop - (place.hdop ?? 0)) < 0.06, "\(name)") }
        }
    }

    @Test func anUnknownCodecIsNotFoundAndTheListNamesEveryOne() {
        #expect(PositionCodec.named("tbeam") == nil)
        #expect(PositionCodec.namesText == "mapthethings, cayenne-lpp, ttnmapper-9, fieldtester, adeunis-ftd or lgt92")
    }

    static func same(_ a: Double?, _ b: Double?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case (let a?, let b?): abs(a - b) < 1e-6
        default: false
        }
    }
}
