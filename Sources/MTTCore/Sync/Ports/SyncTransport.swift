/// Carries sync requests to a server (`HTTPTransport` of MTTHTTP in the field); the seam keeps
/// HTTP, TLS and proxies out of MTTCore and lets the uploader's retry logic be read apart from them.
public protocol SyncTransport: Sendable {
    /// Sends one request. Throws `SyncTransportError` when no answer came.
    func send(_ request: SyncRequest) async throws -> SyncResponse
}

/// No answer from the server.
public enum SyncTransportError: Error, Sendable, CustomStringConvertible {
    /// Worth retrying later.
    case timedOut(seconds: Double)
    /// Worth retrying later: refused, dropped, not HTTP, a broken TLS exchange.
    case connectionFailed(String)
    /// Trying again cannot help, so the run stops for this target: the server's certificate is
    /// not trusted (or the CA file cannot be read), or a proxy refuses to let mtt through.
    case untrusted(String)

    public var description: String {
        switch self {
        case .timedOut(let seconds): "no answer within \(seconds.plainText) s"
        case .connectionFailed(let reason), .untrusted(let reason): reason
        }
    }
}
