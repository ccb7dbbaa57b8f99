import FoundationEssentials
import Glibc
import MTTCore

/// Which proxy a request goes through, read from the environment as curl reads it: `http_proxy`
/// for http:// (lower case only: a CGI program gets HTTP_PROXY from a request header),
/// `https_proxy` or `HTTPS_PROXY` for https://, `all_proxy` or `ALL_PROXY` for both, and
/// `no_proxy` or `NO_PROXY` for the hosts to reach directly.
public struct ProxyConfiguration: Sendable, Hashable {
    /// A proxy server, with the `Proxy-Authorization` header its URL's user and password make.
    public struct Proxy: Sendable, Hashable {
        public var address: HostPort
        public var authorization: String?
    }

    public var http: Proxy?
    public var https: Proxy?
    /// Host names (and their subdomains) and addresses reached directly; `*` for all.
    public var bypass: [String]

    public init(http: Proxy? = nil, https: Proxy? = nil, bypass: [String] = []) {
        self.http = http
        self.https = https
        self.bypass = bypass
    }

    /// A proxy setting that cannot be used, in one line.
    public struct Malformed: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// No proxy: every request goes straight to its server.
    public static let direct = ProxyConfiguration()

    /// The proxies the environment names (pass `ProcessInfo.processInfo.environment`).
    public init(environment: [String: String]) throws(Malformed) {
        func value(_ names: String...) -> String? {
            names.lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        }
        let all = try value("all_proxy", "ALL_PROXY").map { v throws(Malformed) in try Self.proxy(v, "all_proxy") }
        http = try value("http_proxy").map { v throws(Malformed) in try Self.proxy(v, "http_proxy") } ?? all
        https = try value("https_proxy", "HTTPS_PROXY").map { v throws(Malformed) in try Self.proxy(v, "https_proxy") } ?? all
        bypass = (value("no_proxy", "NO_PROXY") ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
    }

    /// The proxy for a request to `host` over `scheme`; nil to connect directly.
    public func proxy(scheme: String, host: String) -> Proxy? {
        guard let proxy = scheme == "https" ? https : http else { return nil }
        return bypasses(host) ? nil : proxy
    }

    /// no_proxy as curl matches it: `*`; the host itself; a domain and every name under it
    /// (`example.org` and `.example.org` both cover `map.example.org`); an address as written.
    func bypasses(_ host: String) -> Bool {
        // Brackets only ever wrap an IPv6 literal; the comparison is of the address inside.
        let host = host.lowercased().filter { $0 != "[" && $0 != "]" }
        return bypass.contains { entry in
            if entry == "*" { return true }
            var domain = Substring(entry.filter { $0 != "[" && $0 != "]" })
            if domain.hasPrefix(".") { domain = domain.dropFirst() }
            return host == domain || host.hasSuffix("." + domain)
        }
    }

    /// `http://[user:password@]host[:port]` (a bare `host:port` is taken as http://). Proxies that
    /// speak TLS themselves (https://) and SOCKS are not supported: mtt says so rather than send
    /// around them.
    static func proxy(_ text: String, _ variable: String) throws(Malformed) -> Proxy {
        let full = text.contains("://") ? text : "http://" + text
        guard let url = URL(string: full), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else {
            throw Malformed(description: "\(variable) is not a proxy URL: \(Self.withoutPassword(text))")
        }
        guard scheme == "http" else {
            throw Malformed(description: "\(variable): mtt speaks to http:// proxies only, not \(scheme)://")
        }
        var authorization: String?
        if let user = url.user {
            let credentials = (user.removingPercentEncoding ?? user) + ":" + ((url.password).flatMap { $0.removingPercentEncoding ?? $0 } ?? "")
            authorization = "Basic " + Data(credentials.utf8).base64EncodedString()
        }
        let bareHost = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        return Proxy(address: HostPort(host: bareHost, port: url.port ?? 1080), authorization: authorization)
    }

    /// The setting as it may be shown: any password in it replaced.
    static func withoutPassword(_ text: String) -> String {
        guard let at = text.lastIndex(of: "@"), let start = text.range(of: "://")?.upperBound ?? Optional(text.startIndex),
              start < at else { return text }
        return String(text[..<start]) + "…@" + text[text.index(after: at)...]
    }
}
