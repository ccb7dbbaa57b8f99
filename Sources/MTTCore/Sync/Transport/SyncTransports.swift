import Foundation

/// The transport for a server's URL.
public enum SyncTransports {
    /// mtt's own keep-alive HTTP/1.1 for http:// (see `PlainHTTPTransport` for why), URLSession
    /// for https://, which needs TLS.
    public static func make(for url: URL, timeout: Double, connections: Int) -> any SyncTransport {
        if url.scheme?.lowercased() == "http" {
            return PlainHTTPTransport(timeout: timeout, connections: connections)
        }
        return URLSessionTransport(timeout: timeout, connections: connections)
    }
}
