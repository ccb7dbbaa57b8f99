import GRDB

/// The `estimated_attempts` table's columns, named once for every read of one.
enum EstimatedAttemptColumns: String, ColumnExpression {
    case id
    case sessionID = "session_id"
    case deviceID = "device_id"
    case devEUI = "dev_eui"
    case fCnt = "f_cnt"
    case sentAt = "sent_at"
    case lat
    case lon
    case alt
    case reason
    case spreadingFactor = "spreading_factor"
    case heardBefore = "heard_before"
    case heardAfter = "heard_after"
}
