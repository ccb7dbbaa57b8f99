extension PositionCodec {
    /// The Dragino LGT-92 (SPEC §9.3), fPort 2: 11, 15 or 18 bytes, the last form with HDOP and
    /// altitude. South and west come as one's complement, 1e-6° (0.1 m) too far from zero; read as
    /// Dragino's own decoder reads them, which is what its users' maps already show.
    public static let lgt92 = PositionCodec(
        name: "lgt92", help: "Dragino LGT-92 (fPort 2)",
        write: { p in
            var bytes: [UInt8] = []
            ByteCoding.appendUInt32BE(UInt32(bitPattern: Int32((p.latitude * 1e6).rounded())), to: &bytes)
            ByteCoding.appendUInt32BE(UInt32(bitPattern: Int32((p.longitude * 1e6).rounded())), to: &bytes)
            // Battery (3.95 V, alarm off), roll, pitch: what the position is sent with.
            bytes += [0x0F, 0x6E, 0x60, 0x00, 0x00, 0x00, 0x00]
            bytes.append(UInt8(clamping: Int(((p.hdop ?? 1) * 100).rounded())))
            ByteCoding.appendUInt16BE(UInt16(bitPattern: Int16(clamping: Int(((p.altitude ?? 0) * 100).rounded()))), to: &bytes)
            return PayloadFrame(bytes, fPort: 2)
        }
    ) { frame throws(UnreadPosition) in
        let bytes = frame.bytes
        if let port = frame.fPort, port != 2 {
            throw UnreadPosition(.notAPosition, "lgt92: fPort \(port) carries no position (2 does)")
        }
        guard bytes.count >= 11 else { throw .tooShort("lgt92", need: "11, 15 or 18", got: bytes.count) }
        guard !frame.all(0, in: 0..<8), !frame.all(0xFF, in: 0..<8) else {
            throw UnreadPosition(.noFix, "lgt92: no fix (coordinates all \(bytes[0] == 0 ? "zero" : "0xFF"))")
        }
        var position = PayloadPosition(
            latitude: Double(ByteCoding.int32BE(bytes[0..<4])) * 1e-6,
            longitude: Double(ByteCoding.int32BE(bytes[4..<8])) * 1e-6)
        if bytes.count >= 18 {
            position.hdop = Double(bytes[15]) / 100
            position.altitude = Double(Int16(bitPattern: ByteCoding.uint16BE(bytes[16..<18]))) / 100
        }
        return position
    }
}
