/// Where an uplink's own payload says its device was (DESIGN's trackers, SPEC §9): the network's
/// decoded payload read with TTN Mapper's key set; else the raw payload through the codec chosen for
/// the device; behind TTN Mapper's gates either way.
public struct PayloadPositioning: Sendable, Hashable {
    public var codecs: CodecChoices
    public var gates: PositionGates

    public init(codecs: CodecChoices = CodecChoices(), gates: PositionGates = PositionGates()) {
        self.codecs = codecs
        self.gates = gates
    }

    /// What the uplink's payload gave.
    public enum Outcome: Sendable, Hashable {
        case placed(PayloadPosition)
        /// A position that failed a gate: kept for the record, never placed.
        case refused(PayloadPosition, gate: PositionGates.Gate, reason: String)
        case unread(UnreadPosition)

        /// Why nothing was placed, as a sample's reason (`mtt status --reasons` counts the part
        /// before the colon); a refused position is kept in it. Nil when placed.
        public var reason: String? {
            switch self {
            case .placed: nil
            case .refused(let position, let gate, let reason):
                "payload position refused, \(gate.rawValue): \(reason) (at \(position.latitude.plainText), \(position.longitude.plainText))"
            case .unread(let unread): "no payload position, \(unread.kind.rawValue): \(unread.detail)"
            }
        }
    }

    public func outcome(for uplink: Uplink) -> Outcome {
        do {
            let position = try read(uplink)
            if let refusal = gates.refusal(of: position) {
                return .refused(position, gate: refusal.gate, reason: refusal.reason)
            }
            return .placed(position)
        } catch {
            return .unread(error)
        }
    }

    /// The decoded payload's position; the chosen codec's when the network decoded none, or one
    /// without a position (a formatter for another purpose, a codec the user named outright).
    private func read(_ uplink: Uplink) throws(UnreadPosition) -> PayloadPosition {
        var decodedReason: UnreadPosition?
        if let decoded = uplink.decodedPayload {
            do {
                return try DecodedPositionReader.position(in: decoded)
            } catch where error.kind == .noFix {
                throw error
            } catch {
                decodedReason = error
            }
        }
        if let codec = codecs.codec(for: uplink) {
            return try codec.position(in: PayloadFrame(uplink.payload, fPort: uplink.fPort))
        }
        throw decodedReason ?? UnreadPosition(
            .noDecoder, "the network decoded nothing and no --codec names \(uplink.deviceID)")
    }
}
