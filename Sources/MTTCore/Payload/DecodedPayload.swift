/// What an uplink's FRMPayload says, decoded the way the MapTheThings server decodes it.
public enum DecodedPayload: Sendable, Hashable {
    case location(LocationPayload)
    case telemetry(TelemetryPayload)
    /// Format 81: a test message, not mapped.
    case test
    case unknown

    public init(bytes: [UInt8]) {
        switch bytes.first {
        case LocationPayload.Format.untracked.rawValue?, LocationPayload.Format.tracked.rawValue?:
            if let p = try? LocationPayload(bytes: bytes) { self = .location(p) } else { self = .unknown }
        case TelemetryPayload.formatByte?:
            if let p = try? TelemetryPayload(bytes: bytes) { self = .telemetry(p) } else { self = .unknown }
        case 0x81?:
            self = .test
        default:
            self = .unknown
        }
    }
}
