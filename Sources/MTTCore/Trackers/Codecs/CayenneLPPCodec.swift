extension PositionCodec {
    /// Cayenne LPP (SPEC §9.3): records of channel, type and data; the GPS record of type 0x88, or
    /// the finer 0x89 of RAK's trackers when both are there. RAK7200, RAK10700/RAK12500 and many
    /// home-made trackers.
    public static let cayenneLPP = PositionCodec(
        name: "cayenne-lpp", help: "Cayenne LPP GPS records (RAK7200, RAK10700, many home-made trackers)",
        write: { p in
            // A battery record first, as trackers send one: the reader walks past it.
            var bytes: [UInt8] = [0x08, 0x02, 0x01, 0x7C, 0x01, CayenneLPP.gps]
            ByteCoding.appendInt24BE(Int32((p.latitude * 1e4).rounded()), to: &bytes)
            ByteCoding.appendInt24BE(Int32((p.longitude * 1e4).rounded()), to: &bytes)
            ByteCoding.appendInt24BE(Int32(((p.altitude ?? 0) * 100).rounded()), to: &bytes)
            return PayloadFrame(bytes, fPort: 1)
        }
    ) { frame throws(UnreadPosition) in
        let bytes = frame.bytes
        var index = 0
        var coarse: PayloadPosition?
        while index + 2 <= bytes.count {
            let type = bytes[index + 1]
            guard let length = CayenneLPP.dataLength[type] else {
                // LPP has no lengths on the wire: past an unknown type nothing can be read.
                if let coarse { return coarse }
                throw UnreadPosition(.malformed, "cayenne-lpp: unknown record type \(type) at byte \(index)")
            }
            let start = index + 2
            guard start + length <= bytes.count else {
                throw UnreadPosition(.malformed, "cayenne-lpp: the record of type \(type) at byte \(index) is cut short")
            }
            let data = bytes[start..<(start + length)]
            switch type {
            case CayenneLPP.preciseGPS:
                return PayloadPosition(
                    latitude: Double(ByteCoding.int32BE(data.prefix(4))) * 1e-6,
                    longitude: Double(ByteCoding.int32BE(data.dropFirst(4).prefix(4))) * 1e-6,
                    altitude: Double(ByteCoding.int24BE(data.dropFirst(8))) * 0.01)
            case CayenneLPP.gps where coarse == nil:
                coarse = PayloadPosition(
                    latitude: Double(ByteCoding.int24BE(data.prefix(3))) * 1e-4,
                    longitude: Double(ByteCoding.int24BE(data.dropFirst(3).prefix(3))) * 1e-4,
                    altitude: Double(ByteCoding.int24BE(data.dropFirst(6))) * 0.01)
            default:
                break
            }
            index = start + length
        }
        if let coarse { return coarse }
        throw UnreadPosition(.noFix, "cayenne-lpp: no GPS record")
    }
}

/// The record types of Cayenne LPP a tracker sends, with their data lengths.
enum CayenneLPP {
    static let gps: UInt8 = 0x88
    static let preciseGPS: UInt8 = 0x89

    static let dataLength: [UInt8: Int] = [
        0x00: 1, // digital input
        0x01: 1, // digital output
        0x02: 2, // analog input
        0x03: 2, // analog output
        0x65: 2, // luminosity
        0x66: 1, // presence
        0x67: 2, // temperature
        0x68: 1, // humidity
        0x71: 6, // accelerometer
        0x73: 2, // barometer
        0x74: 2, // battery voltage (RAK)
        0x86: 6, // gyrometer
        gps: 9,
        preciseGPS: 11,
    ]
}
