/// A position a device put in its own uplink (a tracker's, a field tester's, a MapTheThings node's),
/// with whatever quality figures it sent alongside.
public struct PayloadPosition: Sendable, Hashable, Codable {
    public var latitude: Double
    public var longitude: Double
    /// Metres above sea level, as the device says.
    public var altitude: Double?
    public var satellites: Int?
    public var hdop: Double?
    /// Estimated horizontal error, metres.
    public var accuracy: Double?

    public init(
        latitude: Double, longitude: Double, altitude: Double? = nil,
        satellites: Int? = nil, hdop: Double? = nil, accuracy: Double? = nil
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude.map(Self.signedAltitude)
        self.satellites = satellites
        self.hdop = hdop
        self.accuracy = accuracy
    }

    /// Decoders that write a negative altitude as an unsigned 16-bit number send values just
    /// below 2^16 (SPEC §9.2): −12 m arrives as 65,524.
    static func signedAltitude(_ metres: Double) -> Double {
        (65_536 - 1_000..<65_536).contains(metres) ? metres - 65_536 : metres
    }
}

/// Why an uplink gave no position to map.
public struct UnreadPosition: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// The device says it has no fix (an all-zero frame, `fixFailed`, no GPS record).
        case noFix = "no_fix"
        /// A frame of the device's that carries no position (a status frame, a downlink flush).
        case notAPosition = "not_a_position"
        /// Bytes or fields that are not what the codec reads: too short, an unknown record.
        case malformed
        /// Neither the network's decoded payload nor a codec chosen for the device.
        case noDecoder = "no_decoder"
    }

    public let kind: Kind
    /// The detail, for the log and `mtt status --reasons`.
    public let detail: String

    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    public var description: String { detail }

    static func tooShort(_ codec: String, need: String, got count: Int) -> UnreadPosition {
        UnreadPosition(.malformed, "\(codec): \(count) bytes, a position takes \(need)")
    }
}
