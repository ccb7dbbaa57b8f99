import COpenSSL
import MTTCore

/// OpenSSL's client settings, shared by every TLS connection of one transport: TLS 1.2 or later,
/// the server's certificate checked against the system's CAs (and `caFile`, for a server with a
/// private CA). There is no switch to turn the check off.
final class TLSContext: @unchecked Sendable {
    // SSL_CTX is safe to share between threads once set up; it is not changed after init.
    let pointer: OpaquePointer

    init(trusting caFile: String?) throws(SyncTransportError) {
        guard let context = SSL_CTX_new(TLS_client_method()) else {
            throw .connectionFailed("cannot set up TLS: \(TLSContext.lastError() ?? "OpenSSL failed")")
        }
        pointer = context
        mtt_ssl_ctx_configure_client(context)
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        SSL_CTX_set_default_verify_paths(context)
        if let caFile, SSL_CTX_load_verify_locations(context, caFile, nil) != 1 {
            throw .untrusted("cannot read the CA certificate \(caFile): \(TLSContext.lastError() ?? "not a PEM certificate")")
        }
    }

    deinit {
        SSL_CTX_free(pointer)
    }

    /// The reason of the oldest error OpenSSL queued on this thread, and clears the queue.
    static func lastError() -> String? {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0, let reason = ERR_reason_error_string(code) else { return nil }
        return String(cString: reason)
    }
}
