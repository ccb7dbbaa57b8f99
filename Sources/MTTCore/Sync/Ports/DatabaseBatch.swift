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

        /// A value of each row of a many-row insert: its name and the SQL type it is read as.
        public struct Value: Sendable, Hashable {
            public var name: String
            public var type: String

            public init(_ name: String, _ type: String) {
                self.name = name
                self.type = type
            }
        }

        /// One INSERT of many rows, each value as one array parameter (`unnest`): the text is the
        /// same for every batch, so the server parses and plans it once (a VALUES list of 500
        /// rows, each parameter its own, was parsed and planned again for every batch). `rows` are
        /// the values of each row in the order of `values`; `columns` are the table's columns, each
        /// made by its expression over the values' names, or without one the value of its name;
        /// `suffix` follows (`ON CONFLICT DO NOTHING`).
        public static func insert(
            into table: String, values: [Value], columns: [(name: String, expression: String?)], rows: [[String?]], suffix: String
        ) -> Statement {
            let arrays = values.indices.map { i in arrayLiteral(rows.lazy.map { $0[i] }) }
            let unnest = values.enumerated().map { i, value in "$\(i + 1)::\(value.type)[]" }.joined(separator: ", ")
            return Statement(
                sql: "INSERT INTO \(table) (\(columns.map(\.name).joined(separator: ", "))) SELECT \(columns.map { $0.expression ?? $0.name }.joined(separator: ", "))"
                    + " FROM unnest(\(unnest)) AS row(\(values.map(\.name).joined(separator: ", "))) \(suffix)",
                parameters: arrays)
        }

        /// PostgreSQL's text form of a one-dimensional array: every element quoted (`"`, `\`
        /// escaped), NULL bare.
        public static func arrayLiteral(_ elements: some Sequence<String?>) -> String {
            var text = "{"
            var first = true
            for element in elements {
                if !first { text.append(",") }
                first = false
                guard let element else {
                    text.append("NULL")
                    continue
                }
                text.append("\"")
                if element.utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                    for c in element.unicodeScalars {
                        if c == "\"" || c == "\\" { text.append("\\") }
                        text.unicodeScalars.append(c)
                    }
                } else {
                    text.append(element)
                }
                text.append("\"")
            }
            text.append("}")
            return text
        }
    }

    public var statements: [Statement]

    public init(statements: [Statement]) {
        self.statements = statements
    }
}
