/// Which codec reads which device's raw payload: `--codec DEVICE=NAME` and the config's
/// `trackers.codecs`, DEVICE a device id or a DevEUI in any case, `+` for every device. A device
/// named outright wins over `+`.
public struct CodecChoices: Sendable, Hashable {
    /// Lower-cased device id or DevEUI (or `+`) to its codec.
    private var byDevice: [String: PositionCodec] = [:]

    public init() {}

    /// Reads `DEVICE=NAME` choices; the last for a device stands. Throws the reason, with the
    /// codecs there are when the name is unknown.
    public init(parsing choices: [String]) throws(SpecError) {
        for choice in choices {
            let parts = choice.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw SpecError("\(choice): write DEVICE=CODEC, DEVICE a device id, a DevEUI or + for every device")
            }
            guard let codec = PositionCodec.named(parts[1].lowercased()) else {
                throw SpecError("\(choice): no codec \(parts[1]); the codecs are \(PositionCodec.namesText)")
            }
            byDevice[parts[0].lowercased()] = codec
        }
    }

    public var isEmpty: Bool { byDevice.isEmpty }

    /// The choices as they read back, `DEVICE=NAME` sorted, for the session's record and `config show`.
    public var specs: [String] { byDevice.map { "\($0.key)=\($0.value.name)" }.sorted() }

    /// These choices, and a codec for each device of `known` the user chose none for (the
    /// simulated trackers, whose codecs the run knows).
    public func adding(_ known: [String: PositionCodec]) -> CodecChoices {
        var choices = self
        for (device, codec) in known where choices.byDevice[device.lowercased()] == nil { choices.byDevice[device.lowercased()] = codec }
        return choices
    }

    /// The codec chosen for the device that sent `uplink`, if any.
    public func codec(for uplink: Uplink) -> PositionCodec? {
        guard !byDevice.isEmpty else { return nil }
        return byDevice[uplink.deviceID.lowercased()]
            ?? uplink.devEUI.flatMap { byDevice[$0.lowercased()] }
            ?? byDevice["+"]
    }
}
