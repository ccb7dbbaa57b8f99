extension PositionCodec {
    /// TTN Mapper's 9- or 10-byte format (SPEC §9.3), sent by the T-Beam TTN Mapper firmware and
    /// ttnmapper/gps-node-examples: a device without a fix sends nothing.
    public static let ttnMapper9 = PositionCodec(
        name: "ttnmapper-9", help: "TTN Mapper's 9/10-byte format (T-Beam TTN Mapper firmware)",
        write: { p in
            var bytes: [UInt8] = []
            ByteCoding.appendInt24BE(Int32(((p.latitude + 90) / 180 * Double(0xFF_FFFF)).rounded()), to: &bytes)
            ByteCoding.appendInt24BE(Int32(((p.longitude + 180) / 360 * Double(0xFF_FFFF)).rounded()), to: &bytes)
            ByteCoding.appendUInt16BE(UInt16(bitPattern: Int16(clamping: Int((p.altitude ?? 0).rounded()))), to: &bytes)
            bytes.append(UInt8(clamping: Int(((p.hdop ?? 1) * 10).rounded())))
            bytes.append(UInt8(clamping: p.satellites ?? 8))
            return PayloadFrame(bytes, fPort: 1)
        }
    ) { frame throws(UnreadPosition) in
        let bytes = frame.bytes
        guard bytes.count == 9 || bytes.count == 10 else { throw .tooShort("ttnmapper-9", need: "9 or 10", got: bytes.count) }
        let scale = Double(0xFF_FFFF)
        return PayloadPosition(
            latitude: Double(ByteCoding.uint24BE(bytes[0..<3])) / scale * 180 - 90,
            longitude: Double(ByteCoding.uint24BE(bytes[3..<6])) / scale * 360 - 180,
            altitude: Double(Int16(bitPattern: ByteCoding.uint16BE(bytes[6..<8]))),
            satellites: bytes.count == 10 ? Int(bytes[9]) : nil,
            hdop: Double(bytes[8]) / 10)
    }
}
