/// The head of an HTTP/1.x message as text: its first line and its header fields, names in lower
/// case. One reader for both ends of mtt's HTTP: the client's answers and proxy tunnels (MTTHTTP)
/// and the map's requests (MTTWeb).
public struct HTTPHead: Sendable, Hashable {
    /// The request line or the status line.
    public var firstLine: String
    /// Header fields by lower-case name; a repeated field keeps its last value.
    public var fields: [String: String]

    /// `text` up to (not including) the blank line that ends a head.
    public init(_ text: String) {
        // Lines end in CRLF; a bare LF is taken too (RFC 9112 lets a recipient, and hand-typed
        // requests send them).
        // By bytes: to a String, CR LF is one Character, not two.
        let lines = text.utf8.split(separator: 10, omittingEmptySubsequences: false).map { line in
            String(decoding: line.last == 13 ? line.dropLast() : line, as: UTF8.self)
        }
        firstLine = lines[0]
        fields = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
    }

    /// `HTTP/1.1 200 OK` → ("HTTP/1.1", 200); nil for a line that is no HTTP/1.x status line.
    public var status: (version: Substring, code: Int)? {
        let parts = firstLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let code = Int(parts[1]) else { return nil }
        return (parts[0], code)
    }

    /// `GET /path HTTP/1.1` → ("GET", "/path"); nil for a line that is no HTTP/1.x request line.
    public var request: (method: Substring, target: Substring)? {
        let parts = firstLine.split(separator: " ")
        guard parts.count == 3, parts[2].hasPrefix("HTTP/1.") else { return nil }
        return (parts[0], parts[1])
    }

    /// Where the blank line that ends a head starts in `bytes`, once it has arrived: CRLF CRLF, or
    /// LF LF from a client that ends its lines with LF alone.
    public static func end(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 2 else { return nil }
        for i in 0..<(bytes.count - 1) where bytes[i] == 10 {
            if bytes[i + 1] == 10 { return i }
            if i + 2 < bytes.count, bytes[i + 1] == 13, bytes[i + 2] == 10 { return i > 0 && bytes[i - 1] == 13 ? i - 1 : i }
        }
        return nil
    }
}
