import FoundationEssentials
import Glibc
import MTTCore

#if canImport(Glibc)
#endif

/// A non-blocking TCP socket whose calls wait with poll(2) until a deadline.
final class TCPStream: ByteStream {
    let endpoint: String
    private let fd: Int32

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
            let socket = Glibc.socket(
                info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
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

    var isStale: Bool { hasInput }

    func shutdown() {
        _ = Glibc.shutdown(fd, Int32(SHUT_RDWR))
    }

    /// Something (or the end of the stream) is waiting to be read.
    var hasInput: Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, 0) != 0
    }

    func write(_ bytes: Data, deadline: Date, timeout: Double) throws(SyncTransportError) {
        var offset = 0
        while offset < bytes.count {
            // MSG_NOSIGNAL: a server that went away is an error to report, not a SIGPIPE.
            let n = bytes.withUnsafeBytes { raw in
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

    func read(into buffer: inout [UInt8], deadline: Date, timeout: Double) throws(SyncTransportError) -> Int {
        while true {
            if let n = try readAvailable(into: &buffer) { return n }
            guard Self.wait(fd, for: Int16(POLLIN), until: deadline) else { throw .timedOut(seconds: timeout) }
        }
    }

    /// Reads without waiting: nil when nothing has arrived, 0 at the end of the stream.
    func readAvailable(into buffer: inout [UInt8]) throws(SyncTransportError) -> Int? {
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n >= 0 { return n }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return nil }
            throw .connectionFailed("\(endpoint) dropped the connection")
        }
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
