import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One HTTP/1.1 connection over TCP that can carry many requests in turn (keep-alive).
/// Blocking calls bounded by a deadline; used by one request at a time, which the pool ensures.
final class HTTPConnection: @unchecked Sendable {
    struct Response {
        var status: Int
        var body: Data
        /// The server will take another request on this connection.
        var keepAlive: Bool
    }

    let endpoint: String
    private let fd: Int32
    private var buffer = Data()

    /// Connects to `host:port`, trying each address the name resolves to.
    init(host: String, port: Int, deadline: Date) throws(SyncTransportError) {
        endpoint = "\(host):\(port)"
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
            throw .connectionFailed("cannot find \(host)")
        }
        defer { freeaddrinfo(list) }
        var reason = "\(endpoint) refused the connection"
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let info = candidate {
            candidate = info.pointee.ai_next
            let socket = Foundation.socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            if socket < 0 { continue }
            if connect(socket, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 || errno == EINPROGRESS {
                if Self.wait(socket, for: Int16(POLLOUT), until: deadline) {
                    var error: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(socket, SOL_SOCKET, SO_ERROR, &error, &length)
                    if error == 0 {
                        var yes: Int32 = 1
                        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
                        fd = socket
                        return
                    }
                    if error != ECONNREFUSED { reason = "\(endpoint): \(String(cString: strerror(error)))" }
                } else {
                    reason = "\(endpoint) did not accept a connection in time"
                }
            }
            close(socket)
        }
        throw .connectionFailed(reason)
    }

    deinit {
        close(fd)
    }

    /// True when the server has closed the idle connection (or sent something unasked).
    var isStale: Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, 0) != 0 || !buffer.isEmpty
    }

    /// Sends one request and reads its response.
    func exchange(_ request: Data, deadline: Date, timeout: Double) throws(SyncTransportError) -> Response {
        try write(request, deadline: deadline, timeout: timeout)
        let head = try read(upTo: "\r\n\r\n", deadline: deadline, timeout: timeout, whenClosed: "without an answer")
        let lines = head.components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else {
            throw .connectionFailed("\(endpoint) answered something that is not HTTP")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let connectionHeader = headers["connection"]?.lowercased() ?? ""
        var keepAlive = statusParts[0] == "HTTP/1.1" ? connectionHeader != "close" : connectionHeader == "keep-alive"
        let body: Data
        if status == 204 || status == 304 || (100..<200).contains(status) {
            body = Data()
        } else if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
            body = try readChunked(deadline: deadline, timeout: timeout)
        } else if let lengthText = headers["content-length"] {
            guard let length = Int(lengthText), length >= 0 else { throw .connectionFailed("\(endpoint) sent a bad Content-Length") }
            body = try read(count: length, deadline: deadline, timeout: timeout)
        } else {
            body = try readToEnd(deadline: deadline, timeout: timeout)
            keepAlive = false
        }
        return Response(status: status, body: body, keepAlive: keepAlive)
    }

    private func write(_ data: Data, deadline: Date, timeout: Double) throws(SyncTransportError) {
        var offset = 0
        while offset < data.count {
            let n = data.withUnsafeBytes { raw in
                send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if n > 0 {
                offset += n
            } else if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                guard Self.wait(fd, for: Int16(POLLOUT), until: deadline) else { throw .timedOut(seconds: timeout) }
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                throw .connectionFailed("\(endpoint) dropped the connection")
            }
        }
    }

    /// Reads more bytes into the buffer; false at the end of the stream.
    private func fill(deadline: Date, timeout: Double) throws(SyncTransportError) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let n = Glibc.read(fd, &chunk, chunk.count)
            if n > 0 {
                buffer.append(contentsOf: chunk[0..<n])
                return true
            }
            if n == 0 { return false }
            if errno == EINTR { continue }
            guard errno == EAGAIN || errno == EWOULDBLOCK else {
                throw .connectionFailed("\(endpoint) dropped the connection")
            }
            guard Self.wait(fd, for: Int16(POLLIN), until: deadline) else { throw .timedOut(seconds: timeout) }
        }
    }

    /// The text up to `separator` (which is consumed); `whenClosed` says where the server hung up.
    private func read(
        upTo separator: String, deadline: Date, timeout: Double, whenClosed: String
    ) throws(SyncTransportError) -> String {
        let separator = Data(separator.utf8)
        while true {
            if let end = buffer.range(of: separator) {
                let text = String(decoding: buffer[buffer.startIndex..<end.lowerBound], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex..<end.upperBound)
                return text
            }
            guard try fill(deadline: deadline, timeout: timeout) else {
                throw .connectionFailed("\(endpoint) dropped the connection \(whenClosed)")
            }
        }
    }

    private func read(count: Int, deadline: Date, timeout: Double) throws(SyncTransportError) -> Data {
        while buffer.count < count {
            guard try fill(deadline: deadline, timeout: timeout) else {
                throw .connectionFailed("\(endpoint) dropped the connection in the middle of an answer")
            }
        }
        let data = Data(buffer.prefix(count))
        buffer.removeFirst(count)
        return data
    }

    private func readLine(deadline: Date, timeout: Double) throws(SyncTransportError) -> String {
        try read(upTo: "\r\n", deadline: deadline, timeout: timeout, whenClosed: "in the middle of an answer")
    }

    private func readChunked(deadline: Date, timeout: Double) throws(SyncTransportError) -> Data {
        var body = Data()
        while true {
            let sizeText = try readLine(deadline: deadline, timeout: timeout).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0 else {
                throw .connectionFailed("\(endpoint) sent a bad chunk")
            }
            if size == 0 {
                // Trailers, then the empty line.
                while !(try readLine(deadline: deadline, timeout: timeout)).isEmpty {}
                return body
            }
            body += try read(count: size, deadline: deadline, timeout: timeout)
            _ = try readLine(deadline: deadline, timeout: timeout)
        }
    }

    private func readToEnd(deadline: Date, timeout: Double) throws(SyncTransportError) -> Data {
        while try fill(deadline: deadline, timeout: timeout) {}
        defer { buffer.removeAll() }
        return buffer
    }

    /// Waits until the socket is ready for `events` or the deadline passes.
    private static func wait(_ fd: Int32, for events: Int16, until deadline: Date) -> Bool {
        while true {
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return false }
            var poller = pollfd(fd: fd, events: events, revents: 0)
            let result = poll(&poller, 1, Int32(min(remaining * 1000, Double(Int32.max)).rounded(.up)))
            if result > 0 { return true }
            if result == 0 { return false }
            if errno != EINTR { return false }
        }
    }
}
