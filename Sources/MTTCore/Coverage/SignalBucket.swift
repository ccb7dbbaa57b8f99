/// TTN Mapper's buckets of the signal RSSI + min(SNR, 0): `high` above −95 dBm, then 5 dB steps
/// whose upper edge is included (−100 < s ≤ −95 is `100`) down to −145 < s ≤ −140 (`145`), and
/// `low` at or below −145. A cell counts its receptions per bucket.
public enum SignalBucket: Int, Sendable, CaseIterable, Codable {
    case high, b100, b105, b110, b115, b120, b125, b130, b135, b140, b145, low

    /// The signal TTN Mapper grades by: a weak SNR lowers it, a good one does not raise it.
    public static func signal(rssi: Double, snr: Double?) -> Double {
        rssi + min(snr ?? 0, 0)
    }

    public init(signal s: Double) {
        if s > -95 {
            self = .high
        } else if s <= -145 {
            self = .low
        } else {
            // −100 < s ≤ −95 → 1 (b100), … −145 < s ≤ −140 → 10 (b145).
            let step = Int(((-95 - s) / 5).rounded(.down)) + 1
            self = SignalBucket(rawValue: min(max(step, 1), 10))!
        }
    }

    /// The column of the bucket: TTN Mapper's names (`bucket_high`, `bucket_100`, … `bucket_low`).
    public var name: String {
        switch self {
        case .high: "high"
        case .low: "low"
        default: String(95 + 5 * rawValue)
        }
    }

    /// The bucket's range of the signal, for people: "-95 … -100" (upper edge included).
    public var label: String {
        switch self {
        case .high: "> -95 dBm"
        case .low: "≤ -145"
        default: "-\(90 + 5 * rawValue) … -\(95 + 5 * rawValue)"
        }
    }

    /// The map colour of a cell whose most samples fall in this bucket: TTN Mapper's bands.
    public var band: SignalBand {
        switch self {
        case .high, .b100: .red
        case .b105: .orange
        case .b110: .yellow
        case .b115: .green
        case .b120: .lightBlue
        default: .blue
        }
    }
}
