/// What PostgreSQL or libpq said went wrong, as one line: the database's own words.
public struct PostgresError: Error, Sendable, CustomStringConvertible {
    public var message: String
    /// The SQLSTATE code of a statement's error ("42501": insufficient privilege), when there is one.
    public var state: String?

    public init(_ message: String, state: String? = nil) {
        self.message = message
        self.state = state
    }

    public var description: String { message }

    /// libpq's messages span lines (a connection's "Is the server running…" hint, a tab-indented
    /// detail): one line, its parts joined.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline)
            .map { $0.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ") }
            .filter { !$0.isEmpty }.joined(separator: "; ")
    }
}
