extension PositionCodec {
    /// The Adeunis field test device (SPEC §9.3): a flag byte says which fields follow; the GPS
    /// field is BCD degrees and minutes, with a quality and the satellites but no HDOP.
    public static let adeunisFTD = PositionCodec(
        name: "adeunis-ftd", help: "Adeunis field test device (FTD)",
        write: { p in
            // Degrees and minutes in BCD, the hemisphere in the last nibble: DD MM.mmm H, DDD MM.mm H.
            func digits(_ value: Int, _ count: Int) -> [Int] {
                var rest = value
                return (0..<count).map { _ in defer { rest /= 10 }; return rest % 10 }.reversed()
            }
            func field(_ degrees: Double, _ degreeDigits: Int, _ fractionDigits: Int, negative: Bool) -> [Int] {
                let scale = fractionDigits == 3 ? 1_000 : 100
                // Whole fractions of a minute, so that 59.9999' carries into the degrees.
                let fractions = Int((degrees * 60 * Double(scale)).rounded())
                let minutes = fractions % (60 * scale)
                return digits(fractions / (60 * scale), degreeDigits) + digits(minutes / scale, 2) + digits(minutes % scale, fractionDigits)
                    + [negative ? 1 : 0]
            }
            let nibbles = field(abs(p.latitude), 2, 3, negative: p.latitude < 0) + field(abs(p.longitude), 3, 2, negative: p.longitude < 0)
            let gps = stride(from: 0, to: 16, by: 2).map { UInt8(nibbles[$0] << 4 | nibbles[$0 + 1]) }
            return PayloadFrame([0x10] + gps + [UInt8(0x20 | min(p.satellites ?? 8, 15))], fPort: 1)
        }
    ) { frame throws(UnreadPosition) in
        let bytes = frame.bytes
        guard let flags = bytes.first else { throw .tooShort("adeunis-ftd", need: "a flag byte", got: 0) }
        guard flags & 0x10 != 0 else { throw UnreadPosition(.noFix, "adeunis-ftd: no GPS field in this frame") }
        // Only the temperature (bit 7, one byte) comes before the GPS; bits 6 and 5 are triggers
        // without data.
        let start = flags & 0x80 != 0 ? 2 : 1
        guard bytes.count >= start + 9 else { throw .tooShort("adeunis-ftd", need: "\(start + 9) with these flags", got: bytes.count) }
        let nibbles = bytes[start..<(start + 8)].flatMap { [Int($0 >> 4), Int($0 & 0x0F)] }
        guard nibbles[0..<7].allSatisfy({ $0 <= 9 }), nibbles[8..<15].allSatisfy({ $0 <= 9 }) else {
            throw UnreadPosition(.malformed, "adeunis-ftd: the GPS field is not BCD")
        }
        func number(_ range: Range<Int>) -> Double { Double(nibbles[range].reduce(0) { $0 * 10 + $1 }) }
        // DD MM.mmm, then DDD MM.mm; bit 0 of each last nibble is the hemisphere (1 = South, West).
        let latitude = number(0..<2) + (number(2..<4) + number(4..<7) / 1000) / 60
        let longitude = number(8..<11) + (number(11..<13) + number(13..<15) / 100) / 60
        return PayloadPosition(
            latitude: nibbles[7] & 1 == 1 ? -latitude : latitude,
            longitude: nibbles[15] & 1 == 1 ? -longitude : longitude,
            satellites: Int(bytes[start + 8] & 0x0F))
    }
}
