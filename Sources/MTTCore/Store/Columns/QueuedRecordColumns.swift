import GRDB

/// The names the upload queues' queries give their columns, an attempt or a sample with its fix a row.
enum QueuedRecordColumns: String, ColumnExpression {
    case alt
    case devEUI = "dev_eui"
    case fCnt = "f_cnt"
    case heard
    case id
    case known
    case lat
    case lon
    case method
    case node
    case sentAt = "sent_at"
    case sessionID = "session_id"
    case spreadingFactor = "spreading_factor"
    case state
    case time
    case uplinkID = "uplink_id"
}
