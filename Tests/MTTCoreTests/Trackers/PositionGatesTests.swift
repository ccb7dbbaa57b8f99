import MTTCore
import Testing

/// TTN Mapper's gates (SPEC §9.2), each at its edge, each with its reason, each one that can be
/// turned off or moved.
@Suite("Trackers: TTN Mapper's gates")
struct PositionGatesTests {
    static let good = PayloadPosition(latitude: 52.0907, longitude: 5.1214, altitude: 12, satellites: 7, hdop: 1.2, accuracy: 4)

    static func with(_ change: (inout PayloadPosition) -> Void) -> PayloadPosition {
        var position = good
        change(&position)
        return position
    }

    static let cases: [(PayloadPosition, PositionGates.Gate?)] = [
        (good, nil),
        (with { $0.satellites = 4 }, nil),
        (with { $0.satellites = 3 }, .fewSatellites),
        (with { $0.satellites = nil }, nil),
        (with { $0.accuracy = 15 }, nil),
        (with { $0.accuracy = 15.5 }, .poorAccuracy),
        (with { $0.hdop = 5 }, nil),
        (with { $0.hdop = 5.1 }, .highHDOP),
        (with { $0.latitude = 88.99 }, nil),
        (with { $0.latitude = -89 }, .latitudeOutOfRange),
        (with { $0.latitude = .nan }, .latitudeOutOfRange),
        (with { $0.longitude = 180 }, .longitudeOutOfRange),
        (with { $0.longitude = -179.99 }, nil),
        (with { $0.latitude = 0.5; $0.longitude = -0.9 }, .nullIsland),
        (with { $0.latitude = 0.5; $0.longitude = 1.0 }, nil),
        (with { $0.latitude = 0 }, .zeroCoordinate),
        (with { $0.longitude = 0 }, .zeroCoordinate),
        (with { $0.latitude = 24.35; $0.longitude = 24.35 }, .latitudeEqualsLongitude),
        (with { $0.latitude = -39.096433; $0.longitude = -27.514306 }, .knownBadPoint),
        (with { $0.latitude = -39.0964; $0.longitude = -27.5143 }, nil),
    ]

    @Test(arguments: cases)
    func aPositionIsPlacedOrRefusedWithItsReason(_ position: PayloadPosition, _ gate: PositionGates.Gate?) {
        let refusal = PositionGates().refusal(of: position)
        #expect(refusal?.gate == gate, "\(refusal?.reason ?? "placed")")
        if let refusal { #expect(!refusal.reason.isEmpty) }
    }

    @Test func theReasonSaysWhatWasWrong() {
        #expect(PositionGates().refusal(of: Self.with { $0.satellites = 3 })?.reason == "3 satellites, fewer than 4")
        #expect(PositionGates().refusal(of: Self.with { $0.hdop = 7.5 })?.reason == "HDOP 7.5, over 5")
    }

    @Test func eachGateCanBeMovedOrTurnedOff() {
        var gates = PositionGates()
        gates.minimumSatellites = 3
        gates.maximumHDOP = 8
        gates.maximumAccuracy = 20
        #expect(gates.refusal(of: Self.with { $0.satellites = 3; $0.hdop = 7.5; $0.accuracy = 18 }) == nil)
        for case let (position, gate?) in Self.cases {
            var off = PositionGates()
            off.disabled = [gate]
            #expect(off.refusal(of: position)?.gate != gate, "\(gate) turned off")
        }
        #expect(Set(Self.cases.compactMap(\.1)) == Set(PositionGates.Gate.allCases), "a case for every gate")
    }
}
