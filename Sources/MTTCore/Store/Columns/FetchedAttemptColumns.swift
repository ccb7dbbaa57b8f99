import GRDB

/// The names the fetch's query of a session's attempts gives its columns (the attempt and its fix's time).
enum FetchedAttemptColumns: String, ColumnExpression {
    case attemptID = "attempt_id"
    case time
}
