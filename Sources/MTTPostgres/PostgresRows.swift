/// A result's rows, every value as PostgreSQL's text (nil for NULL).
public struct PostgresRows: Sendable, Hashable {
    public var columns: [String]
    public var rows: [[String?]]

    /// The first row's first value: what a `SELECT count(*)` answers.
    public var value: String? { rows.first?.first ?? nil }
}
