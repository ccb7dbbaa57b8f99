/// Why a target refused a record for good, or why the quality gate held it back: what a mapper
/// reads to decide whether to fix something or send it to an experiment.
public struct SyncMessage: Sendable, Hashable, Codable {
    public var target: SyncTarget
    public var state: SyncOutcome.State
    public var kind: SyncRecordKind
    public var recordID: Int64
    public var message: String
    /// Not settled yet: what the next sync would do with a waiting record.
    public var atNextSync: Bool

    public init(target: SyncTarget, state: SyncOutcome.State, kind: SyncRecordKind, recordID: Int64, message: String, atNextSync: Bool = false) {
        self.atNextSync = atNextSync
        self.target = target
        self.state = state
        self.kind = kind
        self.recordID = recordID
        self.message = message
    }

    enum CodingKeys: String, CodingKey {
        case target, state, kind
        case recordID = "record_id"
        case message
        case atNextSync = "at_next_sync"
    }
}
