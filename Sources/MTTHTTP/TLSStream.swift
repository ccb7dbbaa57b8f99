import COpenSSL
import FoundationEssentials
import Glibc
import MTTCore

/// TLS over a `TCPStream`. OpenSSL reads and writes two memory buffers and this type moves the
/// bytes between them and the socket, so every wait is the TCP stream's poll with its deadline
/// and no write can raise SIGPIPE.
final class TLSStream: ByteStream {
    var endpoint: String { tcp.endpoint }
    private let tcp: TCPStream
    private let ssl: OpaquePointer
    /// Bytes from the server, for OpenSSL to decrypt.
    private let incoming: OpaquePointer
    /// Bytes OpenSSL produced, for the server.
    private let outgoing: OpaquePointer
    private var ended = false
    private var cipher = [UInt8](repeating: 0, count: 16384)

    /// Runs the handshake and checks the server's certificate names `host`.
    init(over tcp: TCPStream, host: String, context: TLSContext, deadline: Date, timeout: Double) throws(SyncTransportError) {
        self.tcp = tcp
        guard let ssl = SSL_new(context.pointer), let incoming = BIO_new(BIO_s_mem()), let outgoing = BIO_new(BIO_s_mem()) else {
            throw .connectionFailed("cannot set up TLS: \(TLSContext.lastError() ?? "OpenSSL failed")")
        }
        self.ssl = ssl
        self.incoming = incoming
        self.outgoing = outgoing
        mtt_bio_set_retry_when_empty(incoming)
        mtt_bio_set_retry_when_empty(outgoing)
        SSL_set_bio(ssl, incoming, outgoing)
        SSL_set_connect_state(ssl)
        // Server Name Indication is for names only; SSL_set1_host checks a name or an address.
        if !Self.isAddress(host) { mtt_ssl_set_server_name(ssl, host) }
        SSL_set1_host(ssl, host)
        let result: Int32
        do {
            result = try perform(deadline: deadline, timeout: timeout) { SSL_do_handshake($0) }
        } catch .connectionFailed(let reason) {
            let verification = SSL_get_verify_result(ssl)
            if verification != X509_V_OK {
                throw .untrusted("TLS with \(tcp.endpoint) failed: \(String(cString: X509_verify_cert_error_string(verification)))")
            }
            throw .connectionFailed(reason)
        }
        guard result > 0 else { throw .connectionFailed("\(tcp.endpoint) closed the connection during the TLS handshake") }
    }

    deinit {
        SSL_free(ssl)  // and both buffers, which it owns
    }

    func shutdown() {
        tcp.shutdown()
    }

    var isStale: Bool {
        if SSL_pending(ssl) > 0 { return true }
        // Records already read with the last answer (a close_notify often comes with it) or
        // arrived since. Session tickets may come to a healthy idle connection; only data or a
        // close make it stale.
        guard BIO_ctrl_pending(incoming) > 0 || tcp.hasInput else { return false }
        do {
            while let n = try tcp.readAvailable(into: &cipher) {
                if n == 0 { return true }
                BIO_write(incoming, cipher, Int32(n))
            }
        } catch {
            return true
        }
        ERR_clear_error()
        var probe: UInt8 = 0
        let n = SSL_read(ssl, &probe, 1)
        return n > 0 || SSL_get_error(ssl, n) != SSL_ERROR_WANT_READ
    }

    func write(_ bytes: Data, deadline: Date, timeout: Double) throws(SyncTransportError) {
        guard !bytes.isEmpty else { return }
        let written = try perform(deadline: deadline, timeout: timeout) { ssl in
            bytes.withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) }
        }
        guard written > 0 else { throw .connectionFailed("\(endpoint) dropped the connection") }
    }

    func read(into buffer: inout [UInt8], deadline: Date, timeout: Double) throws(SyncTransportError) -> Int {
        let count = Int32(buffer.count)
        return Int(try perform(deadline: deadline, timeout: timeout) { SSL_read($0, &buffer, count) })
    }

    /// Runs an OpenSSL call until it completes, carrying bytes both ways; its result, or 0 when
    /// the server closed the stream.
    private func perform(
        deadline: Date, timeout: Double, _ operation: (OpaquePointer) -> Int32
    ) throws(SyncTransportError) -> Int32 {
        while true {
            ERR_clear_error()
            let result = operation(ssl)
            let error = SSL_get_error(ssl, result)
            try sendPending(deadline: deadline, timeout: timeout)
            if result > 0 { return result }
            switch error {
            case SSL_ERROR_WANT_READ:
                if ended { return 0 }
                try receive(deadline: deadline, timeout: timeout)
            case SSL_ERROR_WANT_WRITE:
                continue
            case SSL_ERROR_ZERO_RETURN:
                return 0
            default:
                if ended { return 0 }
                throw .connectionFailed("TLS with \(endpoint) failed: \(TLSContext.lastError() ?? "the connection broke")")
            }
        }
    }

    private func sendPending(deadline: Date, timeout: Double) throws(SyncTransportError) {
        while BIO_ctrl_pending(outgoing) > 0 {
            let n = BIO_read(outgoing, &cipher, Int32(cipher.count))
            guard n > 0 else { return }
            try tcp.write(Data(cipher[0..<Int(n)]), deadline: deadline, timeout: timeout)
        }
    }

    private func receive(deadline: Date, timeout: Double) throws(SyncTransportError) {
        let n = try tcp.read(into: &cipher, deadline: deadline, timeout: timeout)
        if n == 0 {
            ended = true
            mtt_bio_set_ended(incoming)
        } else {
            BIO_write(incoming, cipher, Int32(n))
        }
    }

    private static func isAddress(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }
}
