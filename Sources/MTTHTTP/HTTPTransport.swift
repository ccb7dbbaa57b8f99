import Dispatch
import FoundationEssentials
import Glibc
import MTTCore
import Synchronization

/// HTTP/1.1 over kept-alive connections, plain for `http://` and TLS (OpenSSL) for `https://`.
///
/// mtt speaks HTTP itself rather than through URLSession: on Linux URLSession hands requests to
/// libcurl, which silently sends a request again when a kept-alive connection turns out to be
/// closed, and then sends it without its body: the upload hangs until its timeout, and under load
/// the record can reach the server twice. A record must reach the server once, so every failure
/// here is reported to the uploader, which decides. (FoundationNetworking also brought libcurl,
/// GnuTLS and Kerberos into every mtt process, a third of its memory.)
public final class HTTPTransport: SyncTransport, StreamingTransport {
    private let timeout: Double
    private let maximumIdle: Int
    private let caFile: String?
    private let proxies: ProxyConfiguration
    private let idle = Mutex<[String: [HTTPConnection]]>([:])
    private let tls = Mutex<TLSContext?>(nil)

    /// - Parameters:
    ///   - timeout: seconds to wait for an answer to one request (connecting included).
    ///   - connections: the most idle connections kept open to one server.
    ///   - caFile: a PEM CA certificate trusted for https:// besides the system's.
    ///   - proxies: which requests go through a proxy (`ProxyConfiguration(environment:)` as curl
    ///     reads it; none by default).
    public init(timeout: Double, connections: Int, trusting caFile: String? = nil, proxies: ProxyConfiguration = .direct) {
        self.timeout = timeout
        maximumIdle = connections
        self.caFile = caFile
        self.proxies = proxies
    }

    public func send(_ request: HTTPSyncRequest) async throws -> HTTPSyncResponse {
        try await post(request.url, body: request.body, headers: request.headers.merging(["Content-Type": "application/json"]) { mine, _ in mine })
    }

    /// One POST; the answer whatever its status (a transport failure throws).
    public func post(_ url: URL, body: Data, headers: [String: String]) async throws -> HTTPSyncResponse {
        let response = try await exchange("POST", url, headers: headers, body: body)
        return HTTPSyncResponse(status: response.status, body: response.body)
    }

    /// The largest error answer kept for its message when the body of a success is streamed.
    static let largestErrorBody = 64 << 10

    private func exchange(
        _ method: String, _ url: URL, headers: [String: String], body: Data = Data(), sink: (@Sendable (Data) -> Bool)? = nil
    ) async throws(SyncTransportError) -> HTTPConnection.Response {
        let scheme = url.scheme?.lowercased()
        guard let host = url.host, scheme == "http" || scheme == "https" else {
            throw SyncTransportError.connectionFailed("\(url.absoluteString) is not an http:// or https:// URL")
        }
        let secure = scheme == "https"
        let port = url.port ?? (secure ? 443 : 80)
        let server = HostPort(host: host, port: port)
        let proxy = proxies.proxy(scheme: secure ? "https" : "http", host: host)
        var path = url.path.isEmpty ? "/" : url.path
        if let query = url.query(percentEncoded: true) { path += "?" + query }
        // The Host header as the URL wrote it: with the port only when the URL has one.
        let authority = url.port == nil ? server.bracketedHost : server.description
        // Through a proxy, plain HTTP names the whole URL; HTTPS goes through a CONNECT tunnel
        // and talks to the server itself.
        let target = proxy != nil && !secure ? "http://\(authority)\(path)" : path
        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(authority)\r\n"
        if let authorization = proxy?.authorization, !secure { head += "Proxy-Authorization: \(authorization)\r\n" }
        head += "User-Agent: mtt/\(MTTVersion.current)\r\n"
        if method != "GET" || !body.isEmpty { head += "Content-Length: \(body.count)\r\n" }
        head += "Connection: keep-alive\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        let bytes = Data((head + "\r\n").utf8) + body
        let key = "\(secure ? "https" : "http")://\(server)" + (proxy.map { " via \($0.address)" } ?? "")
        let timeout = self.timeout
        // A cancelled task (a stop request) ends the connection under the blocked read at once.
        let inFlight = InFlightRequest()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<HTTPConnection.Response, SyncTransportError>, Never>) in
            // Blocking socket calls run on Dispatch's threads, never on Swift's cooperative pool.
            DispatchQueue.global().async {
                do throws(SyncTransportError) {
                    let deadline = Date().addingTimeInterval(timeout)
                    let connection: HTTPConnection
                    if let open = self.takeIdle(key) {
                        connection = open
                    } else {
                        let context = secure ? try self.tlsContext() : nil
                        let tcp: TCPStream
                        if let proxy {
                            tcp = try TCPStream(host: proxy.address.host, port: proxy.address.port, deadline: deadline)
                            if secure { try ProxyTunnel.open(to: server, through: tcp, proxy: proxy, deadline: deadline, timeout: timeout) }
                        } else {
                            tcp = try TCPStream(host: host, port: port, deadline: deadline)
                        }
                        if let context {
                            let tls = try TLSStream(over: tcp, host: host, context: context, deadline: deadline, timeout: timeout)
                            connection = HTTPConnection(over: tls)
                        } else {
                            connection = HTTPConnection(over: tcp)
                        }
                    }
                    guard inFlight.start(connection) else { throw .connectionFailed("stopped") }
                    defer { inFlight.end() }
                    let response = try connection.exchange(bytes, deadline: deadline, timeout: timeout, streamingTo: sink)
                    // Ended before the connection goes back to the pool: a stop arriving after
                    // that would shut it down under the next request to take it.
                    inFlight.end()
                    if response.keepAlive { self.putIdle(connection, key) }
                    continuation.resume(returning: .success(response))
                } catch {
                    continuation.resume(returning: .failure(inFlight.wasCancelled ? .connectionFailed("stopped") : error))
                }
            }
            }
        } onCancel: {
            inFlight.cancel()
        }
        return try result.get()
    }

    /// OpenSSL's settings, made at the first https:// request.
    private func tlsContext() throws(SyncTransportError) -> TLSContext {
        try tls.withLock { (context: inout TLSContext?) throws(SyncTransportError) -> TLSContext in
            if let context { return context }
            let made = try TLSContext(trusting: caFile)
            context = made
            return made
        }
    }

    /// An open connection to the server, skipping ones the server closed while they were idle.
    private func takeIdle(_ key: String) -> HTTPConnection? {
        while let connection = idle.withLock({ $0[key]?.popLast() }) {
            if !connection.isStale { return connection }
        }
        return nil
    }

    private func putIdle(_ connection: HTTPConnection, _ key: String) {
        idle.withLock { pool in
            if pool[key, default: []].count < maximumIdle { pool[key, default: []].append(connection) }
        }
    }
}

extension HTTPTransport {
    /// A GET whose successful body is handed to `body` as it arrives (the Storage Integration's
    /// stream of stored uplinks); any other answer's body is kept, up to 64 KiB, for its message.
    public func get(_ url: URL, headers: [String: String], body: @escaping @Sendable (Data) -> Bool) async throws -> StreamedResponse {
        let response = try await exchange("GET", url, headers: headers, sink: body)
        return StreamedResponse(status: response.status, headers: response.headers, errorBody: response.body.prefix(Self.largestErrorBody))
    }
}

/// The connection one request is using, for a cancellation that comes from another thread.
private final class InFlightRequest: @unchecked Sendable {
    private let state = Mutex<(connection: HTTPConnection?, cancelled: Bool)>((nil, false))

    /// False when the request was cancelled before it started.
    func start(_ connection: HTTPConnection) -> Bool {
        state.withLock { state in
            guard !state.cancelled else { return false }
            state.connection = connection
            return true
        }
    }

    func end() {
        state.withLock { $0.connection = nil }
    }

    func cancel() {
        state.withLock { state in
            state.cancelled = true
            state.connection?.shutdown()
        }
    }

    var wasCancelled: Bool { state.withLock { $0.cancelled } }
}
