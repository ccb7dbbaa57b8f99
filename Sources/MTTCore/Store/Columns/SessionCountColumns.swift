import GRDB

/// The names `mtt sessions`' counting queries give their columns (a session's id and its counts).
enum SessionCountColumns: String, ColumnExpression {
    case confirmed
    case devices
    case failed
    case heard
    case held
    case n
    case pending
    case rejected
    case sent
    case session
}
