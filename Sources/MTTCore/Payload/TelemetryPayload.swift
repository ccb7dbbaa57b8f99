/// Format 05: the 12-byte packet with altitude, HDOP and battery, all big-endian:
/// `05 lat24 lon24 alt16 hdop16 bat8`, HDOP in thousandths.
public struct TelemetryPayload: Sendable, Hashable {
    public static let formatByte: UInt8 = 0x05
    public static let byteCount = 12

    public var rawLatitude: Int32
    public var rawLongitude: Int32
    /// Metres.
    public var altitude: Int16
    /// HDOP × 1000.
    public var rawHDOP: UInt16
    public var battery: UInt8

    public init(latitude: Double, longitude: Double, altitude: Int16, hdop: Double, battery: UInt8) {
        self.rawLatitude = CoordinateScale.raw(latitude: latitude)
        self.rawLongitude = CoordinateScale.raw(longitude: longitude)
        self.altitude = altitude
        self.rawHDOP = UInt16(clamping: Int((hdop * 1000).rounded()))
        self.battery = battery
    }

    public init(bytes: [UInt8]) throws {
        guard bytes.count == Self.byteCount else {
            throw PayloadError.wrongLength(kind: "format 05 payload", expected: Self.byteCount, got: bytes.count)
        }
        guard bytes[0] == Self.formatByte else { throw PayloadError.unknownFormat(bytes[0]) }
        rawLatitude = ByteCoding.int24BE(bytes[1...3])
        rawLongitude = ByteCoding.int24BE(bytes[4...6])
        altitude = Int16(bitPattern: ByteCoding.uint16BE(bytes[7...8]))
        rawHDOP = ByteCoding.uint16BE(bytes[9...10])
        battery = bytes[11]
    }

    public var latitude: Double { CoordinateScale.latitude(raw: rawLatitude) }
    public var longitude: Double { CoordinateScale.longitude(raw: rawLongitude) }
    public var hdop: Double { Double(rawHDOP) / 1000 }

    public var bytes: [UInt8] {
        var out: [UInt8] = [Self.formatByte]
        ByteCoding.appendInt24BE(rawLatitude, to: &out)
        ByteCoding.appendInt24BE(rawLongitude, to: &out)
        ByteCoding.appendUInt16BE(UInt16(bitPattern: altitude), to: &out)
        ByteCoding.appendUInt16BE(rawHDOP, to: &out)
        out.append(battery)
        return out
    }
}
