import GRDB

/// The `samples` table's columns, named once for every read of a sample.
enum SampleColumns: String, ColumnExpression {
    case id
    case sessionID = "session_id"
    case time
    case lat
    case lon
    case alt
    case method
    case reason
    case uplinkID = "uplink_id"
    case attemptID = "attempt_id"
}
