import MTTCore
import MTTGPS

extension FixSourceKind {
    /// Every kind `--gps` and `collect.gps` take, in the order help lists them: MTTGPS's, then one
    /// line for each kind another adapter implements.
    static let registered: [FixSourceKind] = FixSourceKind.gps

    /// `--gps` read through the registry.
    static func spec(_ text: String) throws(SpecError) -> GPSSpec {
        try GPSSpec(parsing: text, kinds: registered)
    }

    /// The forms, for help: "gpsd[://HOST:PORT], nmea:FILE[?speed=N], … or fake[:SEED]".
    static var formsHelp: String { formsText(registered) }
}
