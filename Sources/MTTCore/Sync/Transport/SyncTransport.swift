/// Carries sync requests to a server. URLSession in the field; the seam lets the uploader's retry
/// logic be read apart from HTTP.
public protocol SyncTransport: Sendable {
    /// Sends one request. Throws `SyncTransportError` when no answer came.
    func send(_ request: SyncRequest) async throws -> SyncResponse
}

/// No answer from the server: all of these are worth retrying later.
public enum SyncTransportError: Error, Sendable, CustomStringConvertible {
    case timedOut(seconds: Double)
    case connectionFailed(String)

    public var description: String {
        switch self {
        case .timedOut(let seconds): "no answer within \(seconds.plainText) s"
        case .connectionFailed(let reason): reason
        }
    }
}
