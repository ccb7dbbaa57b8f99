import FoundationEssentials
import Glibc

/// A target with its server and settings: what to send for queued records and how to read answers.
public protocol SyncDestination: Sendable {
    var target: SyncTarget { get }
    /// Whether held records are in the queue (TTN Mapper uploads to an experiment).
    var includesHeld: Bool { get }
    /// Records of one kind that one request may carry.
    func batchSize(for kind: SyncRecordKind) -> Int
    /// Turns queued record ids of one kind (in id order) into work.
    func work(for kind: SyncRecordKind, ids: [Int64], store: Store) throws -> [SyncWork]
    func verdict(for response: SyncResponse, kind: SyncRecordKind) -> SyncVerdict
}

extension SyncDestination {
    public var includesHeld: Bool { false }
    public func batchSize(for kind: SyncRecordKind) -> Int { 1 }
}
