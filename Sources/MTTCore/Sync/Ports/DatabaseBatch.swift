/// What a database target asks its transport to do: run these statements in one transaction, all
/// or nothing. Parameters travel as text (`$1`, `$2`, … in each statement), never spliced into SQL.
public struct DatabaseBatch: Sendable {
    public struct Statement: Sendable, Hashable {
        public var sql: String
        public var parameters: [String?]

        public init(sql: String, parameters: [String?]) {
            self.sql = sql
            self.parameters = parameters
        }

        /// One INSERT of many rows: `values` is each column's expression with `?` for the row's
        /// parameters in order (a point is `ST_SetSRID(ST_MakePoint(?, ?), 4326)`, two of them),
        /// `rows` the parameters of each row; `suffix` follows the VALUES (`ON CONFLICT DO NOTHING`).
        public static func insert(into table: String, columns: [String], values: [String], rows: [[String?]], suffix: String) -> Statement {
            var parameters: [String?] = []
            parameters.reserveCapacity(rows.count * columns.count)
            var tuples: [String] = []
            tuples.reserveCapacity(rows.count)
            for row in rows {
                var next = row.makeIterator()
                let tuple = values.map { expression in
                    expression.split(separator: "?", omittingEmptySubsequences: false).enumerated().map { index, piece in
                        guard index > 0 else { return String(piece) }
                        parameters.append(next.next() ?? nil)
                        return "$\(parameters.count)" + piece
                    }.joined()
                }
                tuples.append("(" + tuple.joined(separator: ", ") + ")")
            }
            return Statement(
                sql: "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES " + tuples.joined(separator: ", ") + " " + suffix,
                parameters: parameters)
        }
    }

    public var statements: [Statement]

    public init(statements: [Statement]) {
        self.statements = statements
    }
}
