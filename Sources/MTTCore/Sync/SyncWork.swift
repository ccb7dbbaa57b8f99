/// One piece of an upload run: a request to send, or a record the target's rules keep back.
public enum SyncWork: Sendable {
    case upload(SyncRequest)
    case hold(kind: SyncRecordKind, recordID: Int64, reason: String)
}
