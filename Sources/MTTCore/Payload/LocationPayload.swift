/// The 7-byte location packet the MapTheThings node transmits: `fmt lat24 lon24`, little-endian.
///
/// The coordinates are kept as the raw 24-bit integers, so decoding and re-encoding a packet
/// gives back the same bytes; `latitude`/`longitude` are what the server will map.
public struct LocationPayload: Sendable, Hashable {
    /// The first byte: whether the node reports a TX result for the send.
    public enum Format: UInt8, Sendable, Hashable {
        /// Sent through characteristic 2AD1; the node reports nothing back.
        case untracked = 0x01
        /// Sent through 2ADB with a `ble_seq`; the node notifies a TX result.
        case tracked = 0x02
    }

    public static let byteCount = 7

    public var format: Format
    public var rawLatitude: Int32
    public var rawLongitude: Int32

    public init(format: Format, latitude: Double, longitude: Double) {
        self.format = format
        self.rawLatitude = CoordinateScale.raw(latitude: latitude)
        self.rawLongitude = CoordinateScale.raw(longitude: longitude)
    }

    public init(bytes: [UInt8]) throws {
        guard bytes.count == Self.byteCount else {
            throw PayloadError.wrongLength(kind: "location payload", expected: Self.byteCount, got: bytes.count)
        }
        guard let format = Format(rawValue: bytes[0]) else { throw PayloadError.unknownFormat(bytes[0]) }
        self.format = format
        self.rawLatitude = ByteCoding.int24LE(bytes[1...3])
        self.rawLongitude = ByteCoding.int24LE(bytes[4...6])
    }

    public var latitude: Double { CoordinateScale.latitude(raw: rawLatitude) }
    public var longitude: Double { CoordinateScale.longitude(raw: rawLongitude) }

    public var bytes: [UInt8] {
        var out: [UInt8] = [format.rawValue]
        ByteCoding.appendInt24LE(rawLatitude, to: &out)
        ByteCoding.appendInt24LE(rawLongitude, to: &out)
        return out
    }
}
