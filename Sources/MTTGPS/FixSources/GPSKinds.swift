import MTTCore

extension FixSourceKind {
    /// The kinds of fix source MTTGPS implements, in the order help lists them. A new one is a
    /// file declaring its `FixSourceKind` and one line here (or, for a kind another adapter
    /// implements, one line in the command line's `FixSourceKind.registered`).
    public static let gps: [FixSourceKind] = [
        .gpsd,
        .nmea,
        .fixed,
        .fake,
        .jsonLines,
    ]
}
