/// A target with its server and settings: what to send for queued records and what an answer
/// means. It does no I/O of its own: its requests go through the transport the target named.
public protocol SyncDestination: Sendable {
    associatedtype Request: Sendable
    associatedtype Response: Sendable
    var target: SyncTarget { get }
    /// Which server or file it is, as the user named it: what a record kind refused is noted for.
    var server: String { get }
    /// Whether held records are in the queue (TTN Mapper uploads to an experiment).
    var includesHeld: Bool { get }
    /// Records of one kind that one request may carry.
    func batchSize(for kind: SyncRecordKind) -> Int
    /// Turns queued record ids of one kind (in id order) into work.
    func work(for kind: SyncRecordKind, ids: [Int64], store: Store) throws -> [SyncWork<Request>]
    func verdict(for response: Response, kind: SyncRecordKind) -> SyncVerdict
    /// What the target is sent once after a run that sent records (the community database makes
    /// its map's kept views again); nil: nothing.
    func followUp() -> SyncFollowUp<Request>?
}

extension SyncDestination {
    public var includesHeld: Bool { false }
    public func batchSize(for kind: SyncRecordKind) -> Int { 1 }
    public func followUp() -> SyncFollowUp<Request>? { nil }
}
