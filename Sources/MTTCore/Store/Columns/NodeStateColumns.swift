import GRDB

/// The `node_states` table's columns, named once.
enum NodeStateColumns: String, ColumnExpression {
    case sessionID = "session_id"
    case node
    case state
    case reason
    case since
    case reconnects
}
