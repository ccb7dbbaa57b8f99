/// What a fetch did: `mtt fetch`'s summary and its `--json` object.
public struct FetchSummary: Sendable, Hashable, Encodable {
    public var sessions = 0
    /// Uplinks read from the server, of every device asked for.
    public var read = 0
    public var new = 0
    public var alreadyStored = 0
    /// Uplinks of devices that were none of an active session's nodes: not kept.
    public var otherDevices = 0
    /// Lines that were not an uplink: skipped and counted.
    public var broken = 0
    /// Console-simulated uplinks and messages of other kinds.
    public var skipped = 0
    /// Attempts the fetched uplinks showed heard.
    public var heard = 0
    /// Confirmed attempts of the fetched sessions that no uplink showed heard.
    public var lost = 0
    /// Uplinks of matching and listener sessions placed on their track.
    public var placed = 0
    /// Uplinks that could not be placed, by reason.
    public var unplaceable: [String: Int] = [:]
    public var warnings: [String] = []
    /// Reads that failed, each with the session, the device and the reason.
    public var errors: [String] = []
    /// Stopped by a signal before the end.
    public var interrupted = false

    public init() {}

    enum CodingKeys: String, CodingKey {
        case sessions, read, new
        case alreadyStored = "already_stored"
        case otherDevices = "other_devices"
        case broken, skipped, heard, lost, placed, unplaceable, warnings, errors, interrupted
    }
}
