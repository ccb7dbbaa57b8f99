import GRDB

/// The `sync_unaccepted` table's columns, named once.
enum SyncUnacceptedColumns: String, ColumnExpression {
    case at
    case kind
    case reason
    case server
}
