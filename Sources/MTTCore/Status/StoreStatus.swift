/// The counts `mtt status` shows; the JSON keys are part of the CLI contract (DESIGN.md).
public struct StoreStatus: Sendable, Hashable, Encodable {
    public var sessions: Int
    /// Transmit attempts of active mode, in any state.
    public var attempts: Int
    /// Attempts the node reported as transmitted.
    public var confirmed: Int
    /// Attempts with no TX result within the timeout, or refused by the node.
    public var failed: Int
    /// Attempts still waiting for their result.
    public var pending: Int
    /// Attempts the network was seen to receive (joined to an uplink).
    public var heard: Int
    /// Uplinks the network reported, from any mode.
    public var uplinks: Int
    /// Fixes stored in tracks.
    public var gpsSamples: Int
    /// Samples with a position.
    public var samples: Int
    /// Trackers' uplinks sent and not heard, from the gaps in their frame counters.
    public var estimatedAttempts: Int = 0
    /// Devices whose uplinks are stored.
    public var devices: Int = 0
    /// Attempts sent with a link check (`--linkcheck`), and those the network answered.
    public var linkChecks: Int = 0
    public var linkChecksAnswered: Int = 0
    /// Field testers' tests answered with their reply (`--field-tester`).
    public var fieldTestsAnswered: Int = 0
    /// Records each upload target still waits for, keyed by target name.
    public var unsynced: [String: Int]
    /// Records the TTN Mapper quality gate kept off the main map, keyed by target name; they go
    /// only to an experiment.
    public var held: [String: Int]
    /// Records each target does not get from a plain sync because their session is simulated, or
    /// excluded by the user, keyed by target name.
    public var simulated: [String: Int] = [:]
    public var excluded: [String: Int] = [:]
    /// Records of kinds a target's server said it does not take, keyed by target name; not
    /// counted in `unsynced`.
    public var notTaken: [String: NotTaken] = [:]
    /// The nodes of the newest run that drove any, each with its state and reconnect count.
    public var nodes: [NodeState] = []

    enum CodingKeys: String, CodingKey {
        case sessions, attempts, confirmed, failed, pending, heard, uplinks
        case gpsSamples = "gps_samples"
        case samples, unsynced, held, nodes, devices
        case estimatedAttempts = "estimated_attempts"
        case fieldTestsAnswered = "field_tests_answered"
        case linkChecks = "linkchecks", linkChecksAnswered = "linkchecks_answered"
        case simulated = "held_simulated", excluded = "held_excluded"
        case notTaken = "not_taken"
    }

    /// Share of resolved attempts that the network did not hear, when any attempt was heard-checked.
    public var lossPercent: Double? {
        Self.lossPercent(confirmed: confirmed, failed: failed, heard: heard)
    }

    /// Share of resolved attempts the network did not hear; nil before any attempt is resolved.
    public static func lossPercent(confirmed: Int, failed: Int, heard: Int) -> Double? {
        let resolved = confirmed + failed
        guard resolved > 0 else { return nil }
        return 100 * Double(resolved - heard) / Double(resolved)
    }
}

/// Records a target's server does not take, and what it said.
public struct NotTaken: Sendable, Hashable, Encodable {
    public var count: Int
    public var reason: String
}
