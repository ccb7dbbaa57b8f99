import FoundationEssentials

extension JSONEncoder {
    /// The one JSON style of mtt, for `--json` lines, upload bodies, exports and simulated uplinks:
    /// keys sorted (output diffs cleanly and tests compare it), slashes as they are (URLs, dates).
    public static func stable() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
