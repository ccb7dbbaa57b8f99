import GRDB

/// The columns of SQLite's `PRAGMA foreign_key_check`, named once.
enum ForeignKeyCheckColumns: String, ColumnExpression {
    case table
    case rowid
    case parent
}
