import FoundationEssentials
import Glibc

/// One HTTP POST carrying one or more records to a target.
public struct SyncRequest: Sendable {
    public var kind: SyncRecordKind
    /// The records this request settles: all of them are sent, or none.
    public var recordIDs: [Int64]
    public var url: URL
    public var body: Data
    /// Extra headers; the Authorization header lives here and is never printed.
    public var headers: [String: String]

    public init(kind: SyncRecordKind, recordIDs: [Int64], url: URL, body: Data, headers: [String: String] = [:]) {
        self.kind = kind
        self.recordIDs = recordIDs
        self.url = url
        self.body = body
        self.headers = headers
    }
}
