extension PositionCodec {
    /// The disk91 Wio field tester and the RAK10701 (SPEC §9.3): fPort 1 a 10-byte position with
    /// altitude, HDOP and satellites; fPort 3 ("discovery") the 6-byte position alone.
    public static let fieldTester = PositionCodec(
        name: "fieldtester", help: "disk91 Wio field tester and RAK10701 (fPort 1 and 3)",
        write: { p in
            let latitude = UInt64(max(0, ((abs(p.latitude) * 1e7 - 53) / 108).rounded())) & 0x7F_FFFF
            let longitude = UInt64(max(0, ((abs(p.longitude) * 1e7 - 107) / 215).rounded())) & 0x7F_FFFF
            let packed = (p.longitude < 0 ? 1 << 47 : 0) | (p.latitude < 0 ? 1 << 46 : 0) | latitude << 23 | longitude
            var bytes = (0..<6).map { UInt8(packed >> (40 - 8 * $0) & 0xFF) }
            ByteCoding.appendUInt16BE(UInt16(clamping: Int((p.altitude ?? 0).rounded()) + 1000), to: &bytes)
            bytes.append(UInt8(clamping: Int(((p.hdop ?? 1) * 10).rounded())))
            bytes.append(UInt8(clamping: p.satellites ?? 8))
            return PayloadFrame(bytes, fPort: 1)
        }
    ) { frame throws(UnreadPosition) in
        let bytes = frame.bytes
        let length: Int
        switch frame.fPort {
        case 1?: length = 10
        case 3?: length = 6
        case 2?: throw UnreadPosition(.notAPosition, "fieldtester: fPort 2 asks for its downlinks, no position")
        case let port?: throw UnreadPosition(.notAPosition, "fieldtester: fPort \(port) carries no position (1 and 3 do)")
        case nil: length = bytes.count == 6 ? 6 : 10
        }
        guard bytes.count == length else { throw .tooShort("fieldtester", need: "\(length) on this port", got: bytes.count) }
        guard !frame.all(0, in: 0..<length) else { throw UnreadPosition(.noFix, "fieldtester: no fix (all zero)") }
        let packed = bytes[0..<6].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let quantisedLatitude = Double(packed >> 23 & 0x7F_FFFF)
        let quantisedLongitude = Double(packed & 0x7F_FFFF)
        let latitude = (quantisedLatitude * 108 + 53) / 1e7
        let longitude = (quantisedLongitude * 215 + 107) / 1e7
        var position = PayloadPosition(
            latitude: packed >> 46 & 1 == 1 ? -latitude : latitude,
            longitude: packed >> 47 & 1 == 1 ? -longitude : longitude)
        if length == 10 {
            position.altitude = Double(ByteCoding.uint16BE(bytes[6..<8])) - 1000
            position.hdop = Double(bytes[8]) / 10
            position.satellites = Int(bytes[9])
        }
        return position
    }
}
