/// TTN Mapper's checks on a position a device sent (SPEC §9.2), which keep its map free of the
/// classic tracker faults: a fix from too few satellites, a decoder's zeros, an LGT-92 that writes
/// its latitude twice. A position refused is kept on its uplink with the reason, never placed.
public struct PositionGates: Sendable, Hashable {
    /// One check, by the name `mtt status --reasons` counts it under.
    public enum Gate: String, Sendable, Hashable, Codable, CaseIterable {
        case fewSatellites = "few_satellites"
        case poorAccuracy = "poor_accuracy"
        case highHDOP = "high_hdop"
        case latitudeOutOfRange = "latitude_out_of_range"
        case longitudeOutOfRange = "longitude_out_of_range"
        case nullIsland = "null_island"
        case zeroCoordinate = "zero_coordinate"
        case latitudeEqualsLongitude = "latitude_equals_longitude"
        case knownBadPoint = "known_bad_point"
    }

    /// Fewer satellites than this (when the device says) is refused.
    public var minimumSatellites = 4
    /// Metres; a larger accuracy figure (when the device says) is refused.
    public var maximumAccuracy = 15.0
    /// A larger HDOP (when the device says) is refused.
    public var maximumHDOP = 5.0
    /// Degrees: a position this close to 0,0 in both coordinates is refused.
    public var nullIslandDegrees = 1.0
    /// Gates turned off.
    public var disabled: Set<Gate> = []

    /// A point in the South Atlantic that TTN Mapper found in many devices' data.
    static let knownBadPoint = (latitude: -39.096433, longitude: -27.514306)

    public init() {}

    /// The first gate `position` fails, with the reason; nil when it may be placed.
    public func refusal(of position: PayloadPosition) -> (gate: Gate, reason: String)? {
        for gate in Gate.allCases where !disabled.contains(gate) {
            if let reason = reason(gate, position) { return (gate, reason) }
        }
        return nil
    }

    private func reason(_ gate: Gate, _ p: PayloadPosition) -> String? {
        let (latitude, longitude) = (p.latitude, p.longitude)
        switch gate {
        case .fewSatellites:
            guard let satellites = p.satellites, satellites < minimumSatellites else { return nil }
            return "\(satellites) satellites, fewer than \(minimumSatellites)"
        case .poorAccuracy:
            guard let accuracy = p.accuracy, !(accuracy <= maximumAccuracy) else { return nil }
            return "accuracy \(accuracy.plainText) m, over \(maximumAccuracy.plainText) m"
        case .highHDOP:
            guard let hdop = p.hdop, !(hdop <= maximumHDOP) else { return nil }
            return "HDOP \(hdop.plainText), over \(maximumHDOP.plainText)"
        case .latitudeOutOfRange:
            return abs(latitude) < 89 ? nil : "latitude \(latitude.plainText) is not within ±89°"
        case .longitudeOutOfRange:
            return abs(longitude) < 180 ? nil : "longitude \(longitude.plainText) is not within ±180°"
        case .nullIsland:
            guard abs(latitude) < nullIslandDegrees, abs(longitude) < nullIslandDegrees else { return nil }
            return "within \(nullIslandDegrees.plainText)° of 0,0"
        case .zeroCoordinate:
            return latitude == 0 || longitude == 0 ? "a coordinate is exactly 0" : nil
        case .latitudeEqualsLongitude:
            return latitude == longitude ? "latitude equals longitude (\(latitude.plainText))" : nil
        case .knownBadPoint:
            let bad = Self.knownBadPoint
            guard abs(latitude - bad.latitude) < 1e-6, abs(longitude - bad.longitude) < 1e-6 else { return nil }
            return "the South Atlantic point many devices send (\(bad.latitude.plainText), \(bad.longitude.plainText))"
        }
    }
}
