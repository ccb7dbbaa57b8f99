import GRDB

/// The `sessions` table's columns, named once for every read of a session row.
enum SessionColumns: String, ColumnExpression {
    case id
    case mode
    case startedAt = "started_at"
    case endedAt = "ended_at"
    case nodes
    case gps
    case network
    case note
    case mqttURL = "mqtt_url"
    case mqttUser = "mqtt_user"
    case devices
    case simulated
    case sourceHash = "source_hash"
    case fetchedAt = "fetched_at"
    case name
    case syncExcluded = "sync_excluded"
}
