/// One piece of an upload run: a request to send, or a record the target's rules keep back.
public enum SyncWork<Request: Sendable>: Sendable {
    case upload(SyncBatch<Request>)
    case hold(kind: SyncRecordKind, recordID: Int64, reason: String)
}

/// The records one request settles: all of them are sent, or none.
public struct SyncBatch<Request: Sendable>: Sendable {
    public var kind: SyncRecordKind
    public var recordIDs: [Int64]
    /// What the target's transport takes: an HTTP POST, lines for a file, rows for a database.
    public var request: Request

    public init(kind: SyncRecordKind, recordIDs: [Int64], request: Request) {
        self.kind = kind
        self.recordIDs = recordIDs
        self.request = request
    }
}

/// A request sent once after a run's records (`SyncDestination.followUp`). Its failure is a note,
/// not the run's: the records are delivered.
public struct SyncFollowUp<Request: Sendable>: Sendable {
    public var request: Request
    /// What it did, said with how long it took ("the map … made in 12.2 s").
    public var done: String
    /// The note's words when it fails, before the error.
    public var ifFailed: String

    public init(request: Request, done: String, ifFailed: String) {
        self.request = request
        self.done = done
        self.ifFailed = ifFailed
    }
}
