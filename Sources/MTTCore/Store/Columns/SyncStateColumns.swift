import GRDB

/// The `sync_state` table's columns that the rejected records' list reads, named once.
enum SyncStateColumns: String, ColumnExpression {
    case kind
    case message
    case recordID = "record_id"
}
