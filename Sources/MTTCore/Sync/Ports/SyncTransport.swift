/// Carries a target's requests somewhere: MTTHTTP's `HTTPTransport` for HTTP targets, MTTSystem's
/// `AppendingFile` for the file target, a database connection for a database. A target takes the one
/// it needs from `SyncTransports` in its `prepare`; the uploader's ledger, retries and back-off are
/// the same whichever it is.
public protocol SyncTransport<Request, Response>: Sendable {
    associatedtype Request: Sendable
    associatedtype Response: Sendable
    /// Sends one request. Throws `SyncTransportError` when no answer came.
    func send(_ request: Request) async throws -> Response
}

/// No answer from where the records go.
public enum SyncTransportError: Error, Sendable, CustomStringConvertible {
    /// Worth retrying later.
    case timedOut(seconds: Double)
    /// Worth retrying later: refused, dropped, not HTTP, a broken TLS exchange, a full disk.
    case connectionFailed(String)
    /// Trying again cannot help, so the run stops for this target: the server's certificate is
    /// not trusted (or the CA file cannot be read), a proxy refuses to let mtt through, a file
    /// that cannot be opened for writing.
    case untrusted(String)

    public var description: String {
        switch self {
        case .timedOut(let seconds): "no answer within \(seconds.plainText) s"
        case .connectionFailed(let reason), .untrusted(let reason): reason
        }
    }
}
