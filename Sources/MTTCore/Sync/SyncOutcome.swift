/// What became of one record at one target; written to `sync_state` so it is never sent again.
public struct SyncOutcome: Sendable, Hashable {
    public enum State: String, Sendable, Hashable, Codable {
        /// The target accepted it.
        case sent
        /// The target refused it for good (an invalid record); kept with the target's reason.
        case rejected
        /// The TTN Mapper quality gate kept it off the main map; it still goes to an experiment.
        case held
    }

    public var kind: SyncRecordKind
    public var recordID: Int64
    public var state: State
    /// Requests it took (0 for a record held back without a request).
    public var tries: Int
    /// The target's reason for a rejection, or the gate's for a hold.
    public var message: String?

    public init(kind: SyncRecordKind, recordID: Int64, state: State, tries: Int, message: String? = nil) {
        self.kind = kind
        self.recordID = recordID
        self.state = state
        self.tries = tries
        self.message = message
    }
}
