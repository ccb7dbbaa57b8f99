extension PositionCodec {
    /// The MapTheThings node's packets (SPEC §1), placed as the MapTheThings server places them.
    public static let mapTheThings = PositionCodec(
        name: "mapthethings", help: "MapTheThings node packets (formats 01, 02 and 05)",
        write: { p in
            let packet = TelemetryPayload(
                latitude: p.latitude, longitude: p.longitude, altitude: Int16(clamping: Int((p.altitude ?? 0).rounded())), hdop: p.hdop ?? 1, battery: 90)
            return PayloadFrame(packet.bytes, fPort: 1)
        }
    ) { frame throws(UnreadPosition) in
        switch frame.bytes.first {
        case LocationPayload.Format.untracked.rawValue?, LocationPayload.Format.tracked.rawValue?:
            guard let packet = try? LocationPayload(bytes: frame.bytes) else {
                throw .tooShort("mapthethings", need: "\(LocationPayload.byteCount)", got: frame.bytes.count)
            }
            return PayloadPosition(latitude: packet.latitude, longitude: packet.longitude)
        case TelemetryPayload.formatByte?:
            guard let packet = try? TelemetryPayload(bytes: frame.bytes) else {
                throw .tooShort("mapthethings", need: "\(TelemetryPayload.byteCount) in format 05", got: frame.bytes.count)
            }
            return PayloadPosition(
                latitude: packet.latitude, longitude: packet.longitude,
                altitude: Double(packet.altitude), hdop: packet.hdop)
        case 0x81?:
            throw UnreadPosition(.notAPosition, "mapthethings: a test packet (format 81)")
        case let format?:
            throw UnreadPosition(.malformed, "mapthethings: format \(Hex.string([format])) is not one with a position (01, 02, 05)")
        case nil:
            throw .tooShort("mapthethings", need: "\(LocationPayload.byteCount)", got: 0)
        }
    }
}
