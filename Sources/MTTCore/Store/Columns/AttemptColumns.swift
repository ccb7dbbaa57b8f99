import GRDB

/// The `attempts` table's columns, named once for every read of a transmit attempt.
enum AttemptColumns: String, ColumnExpression {
    case id
    case sessionID = "session_id"
    case node
    case sequence
    case payload
    case fixID = "fix_id"
    case sentAt = "sent_at"
    case state
    case fCnt = "f_cnt"
    case devEUI = "dev_eui"
    case resolvedAt = "resolved_at"
    case failureReason = "failure_reason"
    case spreadingFactor = "spreading_factor"
    case uplinkID = "uplink_id"
}
