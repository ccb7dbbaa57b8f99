/// A server's address as people write it: `host`, `host:port`, `[v6::addr]` or `[v6::addr]:port`
/// (gpsd, MQTT, HTTP proxies, the web page's listen address). One parser for all of them.
public struct HostPort: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Why a text is no address, said without naming where it came from (the caller does).
    public struct Malformed: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// - Parameter defaultPort: the port when the text names none.
    public init(parsing text: some StringProtocol, defaultPort: Int) throws(Malformed) {
        let text = String(text)
        var host: Substring
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw Malformed(description: "an IPv6 address needs its closing ]") }
            host = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw Malformed(description: "only :PORT may follow the ]") }
                portText = after.dropFirst()
            }
        } else {
            let pieces = text.split(separator: ":", omittingEmptySubsequences: false)
            guard pieces.count <= 2 else { throw Malformed(description: "write an IPv6 address in brackets, [::1]:PORT") }
            host = pieces[0]
            portText = pieces.count == 2 ? pieces[1] : nil
        }
        guard !host.isEmpty else { throw Malformed(description: "no host") }
        var port = defaultPort
        if let portText {
            guard let value = Int(portText), (1...65535).contains(value) else { throw Malformed(description: "the port must be 1 to 65535") }
            port = value
        }
        self.init(host: String(host), port: port)
    }

    /// The host as it stands in an address or a URL: an IPv6 address in brackets.
    public var bracketedHost: String {
        host.contains(":") ? "[\(host)]" : host
    }

    /// `host:port`, with an IPv6 address in brackets.
    public var description: String {
        "\(bracketedHost):\(port)"
    }
}
