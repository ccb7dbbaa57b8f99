import MTTCore
import MTTGPS

extension FixSourceKind {
    /// The kinds that are a GPS, in the order help lists them: MTTGPS's, then one line for each
    /// kind another adapter implements. `mtt gps` reads these.
    static let receivers: [FixSourceKind] = FixSourceKind.gps

    /// Every kind `--gps` and `collect.gps` take: the GPSs, and the devices' own positions.
    static let registered: [FixSourceKind] = receivers + [
        .payload(besides: receivers),
    ]

    /// `--gps` read through the registry.
    static func spec(_ text: String, kinds: [FixSourceKind] = registered) throws(SpecError) -> GPSSpec {
        try GPSSpec(parsing: text, kinds: kinds)
    }

    /// The forms, for help: "gpsd[://HOST:PORT], nmea:FILE[?speed=N], … or payload[+GPS]".
    static var formsHelp: String { formsText(registered) }
}
