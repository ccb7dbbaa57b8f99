/// What a value from the air can physically be. Every uplink mtt stores is held to these (MQTT,
/// fetch, import, the node: `Uplink.screened()`), and the community database checks the same
/// numbers (`CommunityTable`): an RSSI of 1e400 arrives as +Inf, which no JSON output can carry,
/// and one NaN in a shared aggregate stays there for good (`GREATEST` keeps it).
public enum PhysicalLimits {
    /// dBm: below the noise floor of any radio, above what a gateway next to the node reads.
    public static let rssi: ClosedRange<Double> = -200...30
    /// dB.
    public static let snr: ClosedRange<Double> = -50...50
    /// LoRa's spreading factors, with room for SF5 and SF6 (SX126x).
    public static let spreadingFactor: ClosedRange<Int> = 5...12
    public static let latitude: ClosedRange<Double> = -90...90
    public static let longitude: ClosedRange<Double> = -180...180
    /// Records are dated from 2000 (1 January, UTC) …
    public static let earliest = Timestamp(secondsSinceEpoch: 946_684_800)
    /// … to this many seconds after now: a clock running a little ahead, not a date in 2099.
    public static let aheadOfNow = 86_400.0

    /// Whether a latitude and longitude are a place (NaN and the infinities are not): the one rule,
    /// which `GeoPoint(checkingLatitude:longitude:)` applies too.
    public static func isPlace(latitude: Double, longitude: Double) -> Bool {
        Self.latitude.contains(latitude) && Self.longitude.contains(longitude)
    }

    public static func isPossible(_ time: Timestamp, now: Timestamp = .now()) -> Bool {
        time >= earliest && time.seconds(since: now) <= aheadOfNow
    }

    /// Gateway and device ids are shown in terminals, logs and files: a control character (a NUL
    /// cut C strings short) or a bidirectional override (U+202E turns the rest of a line around)
    /// is kept as its escape, `\u{202E}`, so every output shows what came.
    public static func printable(_ id: String) -> String {
        // Nearly every id is printable ASCII, told by its bytes alone: a scalar's Unicode category
        // is a table lookup, and looking up every id's was 5 % of a listener's work per uplink.
        // Read in place: walked through the string's own view, the bytes cost 320 instructions an
        // id, 1.4 % of a listener's work (scripts/ingest-profile).
        let isPrintableASCII = id.utf8.withContiguousStorageIfAvailable { bytes in bytes.allSatisfy { $0 &- 0x20 < 0x5F } }
        if isPrintableASCII ?? id.utf8.allSatisfy({ (0x20..<0x7F).contains($0) }) { return id }
        guard id.unicodeScalars.contains(where: isUnprintable) else { return id }
        var shown = ""
        for scalar in id.unicodeScalars {
            if isUnprintable(scalar) {
                shown += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }

    private static func isUnprintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned: return true
        default: return false
        }
    }
}
