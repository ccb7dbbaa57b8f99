import CMalloc
import FoundationEssentials
import Glibc
import MTTCore
import Synchronization

/// The map's HTTP/1.1 server: a thread per connection, one GET per connection, blocking sockets.
///
/// Written for mtt rather than taken from FlyingFox (0.27.1), for two measured reasons: FlyingFox
/// reads a request's head without a bound, a byte at a time — one client sending a 50 MB header
/// kept a core at 94 % for minutes on the machine that also runs the collection; and its proxy
/// handler imports FoundationNetworking, which linked libcurl (and its TLS and Kerberos libraries)
/// back into the static release build that had been rid of it to save a third of mtt's memory.
/// The map needs little of HTTP: GET, a bounded head (16 KiB, read within 10 s), no body, answers
/// whole, chunked or as a stream of events. At most 32 connections at once.
final class HTTPListener: Sendable {
    static let largestHead = 16 << 10
    static let headSeconds = 5
    static let connections = 32

    /// A connection and what it is doing: one still waiting for its request's head is the first
    /// to go when the slots are full, so that sockets that connect and say nothing (from anyone on
    /// the Wi-Fi) cannot shut the map off.
    private struct Connection {
        let accepted: ContinuousClock.Instant
        var waitingForHead = true
        /// Shut down to make room; on its way out.
        var evicted = false
    }
    /// A client that takes no bytes for this long is dropped (its answer's writer is freed).
    static let sendSeconds = 30

    private let listener: Int32
    private let handle: @Sendable (MapRequest) -> MapResponse
    /// The connections being served, by descriptor.
    private let open = Mutex<[Int32: Connection]>([:])
    private let stopped = Atomic<Bool>(false)
    let port: Int

    init(listen: HostPort, handle: @escaping @Sendable (MapRequest) -> MapResponse) throws(MapServer.Problem) {
        self.handle = handle
        (listener, port) = try Self.bind(listen)
        BlockingThread.start(name: "mtt-map") { [self] in acceptLoop() }
    }

    // Descriptors are shut down and closed under the `open` lock, and the listener closed only in
    // deinit (the accept thread holds the listener until it ends): a descriptor shut down after
    // it was closed may by then be another connection of this process.
    func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        open.withLock { connections in
            for fd in connections.keys { shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    deinit {
        close(listener)
    }

    private func acceptLoop() {
        while !stopped.load(ordering: .relaxed) {
            var peer = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let client = withUnsafeMutablePointer(to: &peer) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(listener, $0, &length) }
            }
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            // The last slot is kept for this machine (a status check, the browser beside it).
            let limit = Self.isLoopback(peer, length: length) ? Self.connections : Self.connections - 1
            let admitted = open.withLock { connections in
                if connections.values.count(where: { !$0.evicted }) >= limit,
                   let idle = connections.filter({ $0.value.waitingForHead && !$0.value.evicted }).min(by: { $0.value.accepted < $1.value.accepted }) {
                    shutdown(idle.key, Int32(SHUT_RDWR))
                    connections[idle.key]?.evicted = true
                }
                guard connections.values.count(where: { !$0.evicted }) < limit else { return false }
                connections[client] = Connection(accepted: .now)
                return true
            }
            guard admitted else {
                Self.send(client, .text(503, "too many connections to the map at once\n"))
                close(client)
                continue
            }
            BlockingThread.start(name: "mtt-http") { [self] in
                serve(client)
                open.withLock { connections in
                    connections[client] = nil
                    close(client)
                }
            }
        }
    }

    private func serve(_ client: Int32) {
        var receive = timeval(tv_sec: Self.headSeconds, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &receive, socklen_t(MemoryLayout<timeval>.size))
        var sendLimit = timeval(tv_sec: Self.sendSeconds, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &sendLimit, socklen_t(MemoryLayout<timeval>.size))
        var head: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        let deadline = Date().addingTimeInterval(Double(Self.headSeconds))
        var end: Int?
        while end == nil {
            guard head.count <= Self.largestHead else {
                Self.send(client, .text(431, "the request's head is larger than \(Self.largestHead >> 10) KiB\n"))
                return
            }
            guard Date() < deadline else { return }
            let n = read(client, &chunk, chunk.count)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            head += chunk[0..<n]
            end = HTTPHead.end(in: head)
        }
        guard let end, end <= Self.largestHead else {
            Self.send(client, .text(431, "the request's head is larger than \(Self.largestHead >> 10) KiB\n"))
            return
        }
        open.withLock { $0[client]?.waitingForHead = false }
        let parsed = HTTPHead(String(decoding: head[..<end], as: UTF8.self))
        Self.send(client, respond(to: parsed), headOnly: parsed.request?.method == "HEAD")
        // The answer is gone (a coverage layer can be hundreds of megabytes): glibc keeps what it
        // freed unless asked, and the server stayed at its largest answer's size for good.
        _ = malloc_trim(0)
    }

    /// Whether a client is this machine, by the same rule as the listen address (`WebAccess`).
    private static func isLoopback(_ peer: sockaddr_storage, length: socklen_t) -> Bool {
        var peer = peer
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let named = withUnsafePointer(to: &peer) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getnameinfo($0, length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0
            }
        }
        guard named else { return false }
        let text = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // An IPv4 client of a socket listening on :: is named ::ffff:127.…
        return WebAccess.isLoopback(text.hasPrefix("::ffff:") ? String(text.dropFirst("::ffff:".count)) : text)
    }

    /// The answer to a request's head: checked here, routed by the map.
    private func respond(to parsed: HTTPHead) -> MapResponse {
        guard let (method, target) = parsed.request else { return .text(400, "not an HTTP/1.1 request\n") }
        let headers = parsed.fields
        if headers["transfer-encoding"] != nil || (headers["content-length"].map { $0 != "0" } ?? false) {
            return .text(413, "the map takes no request body\n")
        }
        guard method == "GET" || method == "HEAD" else { return .text(405, "the map only reads: GET\n") }
        let requested = String(target)
        let (rawPath, rawQuery) = requested.firstIndex(of: "?").map { (String(requested[..<$0]), String(requested[requested.index(after: $0)...])) } ?? (requested, "")
        // The path as it was sent: a table of exact paths has nothing for `..` or `%2e` to climb.
        let query = rawQuery.split(separator: "&").map { item -> (String, String) in
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (s: Substring) in s.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(s) }
            return (decode(pair[0]), pair.count > 1 ? decode(pair[1]) : "")
        }
        return handle(MapRequest(method: String(method), path: rawPath, query: query, headers: headers))
    }

    private static let reasons = [
        200: "OK", 400: "Bad Request", 401: "Unauthorized", 404: "Not Found", 405: "Method Not Allowed", 413: "Payload Too Large",
        431: "Request Header Fields Too Large", 500: "Internal Server Error", 503: "Service Unavailable",
    ]

    private static func head(_ status: Int, _ type: String, _ extra: [String: String], length: Int?) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(reasons[status] ?? "Status")\r\nContent-Type: \(type)\r\n"
        text += "Cache-Control: \(type.hasPrefix("text/javascript") || type.hasPrefix("text/css") ? "max-age=3600" : "no-store")\r\n"
        text += "X-Content-Type-Options: nosniff\r\nConnection: close\r\n"
        text += length.map { "Content-Length: \($0)\r\n" } ?? (type == "text/event-stream" ? "" : "Transfer-Encoding: chunked\r\n")
        for (name, value) in extra.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
        return Array((text + "\r\n").utf8)
    }

    /// Writes an answer (its head alone for a HEAD request); a client that went away ends it quietly.
    private static func send(_ fd: Int32, _ response: MapResponse, headOnly: Bool = false) {
        switch response {
        case .whole(let status, let type, let body, let extra):
            _ = writeAll(fd, head(status, type, extra, length: body.count) + (headOnly ? [] : body))
        case .written(let type, _) where headOnly:
            _ = writeAll(fd, head(200, type, [:], length: nil))
        case .events where headOnly:
            _ = writeAll(fd, head(200, "text/event-stream", ["X-Accel-Buffering": "no"], length: nil))
        case .written(let type, let write):
            guard writeAll(fd, head(200, type, [:], length: nil)) else { return }
            // Each 64 KiB piece is one chunk; a blocking send holds the writer (and its database
            // read) to the client's pace, never more than a piece ahead.
            let sink = TextSink(target: "the web client") { bytes throws(OutputError) in
                guard writeAll(fd, Array(String(bytes.count, radix: 16).utf8) + [13, 10] + bytes + [13, 10]) else {
                    throw OutputError(target: "the web client", errno: EPIPE)
                }
            }
            do {
                try write(sink)
                try sink.flush()
                _ = writeAll(fd, Array("0\r\n\r\n".utf8))
            } catch {}
        case .events(let queue):
            defer { queue.close() }
            guard writeAll(fd, head(200, "text/event-stream", ["X-Accel-Buffering": "no"], length: nil)) else { return }
            while let next = queue.next(within: 15) {
                // Nothing for 15 s: a comment keeps proxies and phones from closing the stream and
                // tells whether the client is still there.
                guard writeAll(fd, next ?? Array(": still here\n\n".utf8)) else { return }
            }
        }
    }

    /// Whether every byte reached the client (false once it went away).
    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        (try? OutputError.writeAll(bytes, to: fd, target: "the client", isSocket: true)) != nil
    }

    /// A listening TCP socket on `address` (IPv4 or IPv6), and its port (the system's choice for 0).
    private static func bind(_ address: HostPort) throws(MapServer.Problem) -> (Int32, Int) {
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICHOST
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        let host = address.host == "localhost" ? "127.0.0.1" : address.host
        guard getaddrinfo(host, String(address.port), &hints, &found) == 0, let info = found else {
            throw MapServer.Problem(description: "cannot listen on \(address): not an IP address of this machine (give one, like 0.0.0.0 or 192.168.4.1)")
        }
        defer { freeaddrinfo(found) }
        let fd = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        guard Glibc.bind(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0, listen(fd, 64) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw MapServer.Problem(description: "cannot listen on \(address): \(reason)")
        }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        var port = address.port
        withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(fd, $0, &length) }
            if pointer.pointee.ss_family == sa_family_t(AF_INET) {
                port = pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
            } else {
                port = pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
            }
        }
        return (fd, port)
    }
}
