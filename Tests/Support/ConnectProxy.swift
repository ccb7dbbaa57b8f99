import Foundation
import Synchronization

/// An HTTP proxy on 127.0.0.1 that opens CONNECT tunnels, as a company or hotel proxy does for
/// https://, and keeps the targets it was asked for. A thread per connection.
public final class ConnectProxy: Sendable {
    public let port: Int
    /// `http://127.0.0.1:PORT`, for https_proxy.
    public var url: String { "http://127.0.0.1:\(port)" }
    private let listener: Int32
    private let state = Mutex((targets: [String](), authorizations: [String?](), stopped: false))
    /// The `Proxy-Authorization` it wants; nil takes anyone.
    private let wanted: String?

    public init(requiring authorization: String? = nil) throws {
        wanted = authorization
        (listener, port) = try LoopbackPort.listen()
        Thread { [self] in acceptLoop() }.start()
    }

    deinit { stop() }

    /// Every CONNECT target asked for, in order (`127.0.0.1:8443`).
    public var targets: [String] { state.withLock { $0.targets } }

    public func stop() {
        let first = state.withLock { s in defer { s.stopped = true }; return !s.stopped }
        if first { shutdown(listener, Int32(SHUT_RDWR)) }
    }

    private func acceptLoop() {
        defer { close(listener) }
        while let fd = LoopbackPort.accept(on: listener) {
            Thread { [self] in tunnel(fd) }.start()
        }
    }

    private func tunnel(_ client: Int32) {
        defer { close(client) }
        var head: [UInt8] = []
        var byte: UInt8 = 0
        while !(head.count >= 4 && head.suffix(4).elementsEqual(Array("\r\n\r\n".utf8))) {
            guard read(client, &byte, 1) == 1 else { return }
            head.append(byte)
        }
        let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
        let request = lines[0].split(separator: " ")
        guard request.count == 3, request[0] == "CONNECT" else {
            answer(client, "405 Method Not Allowed")
            return
        }
        let target = String(request[1])
        let authorization = lines.first { $0.lowercased().hasPrefix("proxy-authorization:") }
            .map { String($0.dropFirst("proxy-authorization:".count)).trimmingCharacters(in: .whitespaces) }
        state.withLock {
            $0.targets.append(target)
            $0.authorizations.append(authorization)
        }
        if let wanted, authorization != wanted {
            answer(client, "407 Proxy Authentication Required")
            return
        }
        guard let colon = target.lastIndex(of: ":"), let port = Int(target[target.index(after: colon)...]) else {
            answer(client, "400 Bad Request")
            return
        }
        let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(server) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr(String(target[..<colon]))
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else {
            answer(client, "502 Bad Gateway")
            return
        }
        answer(client, "200 Connection Established")
        relay(client, server)
    }

    private func answer(_ fd: Int32, _ status: String) {
        let text = Array("HTTP/1.1 \(status)\r\n\r\n".utf8)
        _ = text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    /// Copies bytes both ways until either side closes.
    private func relay(_ a: Int32, _ b: Int32) {
        var fds = [pollfd(fd: a, events: Int16(POLLIN), revents: 0), pollfd(fd: b, events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let ready = poll(&fds, 2, 30_000)
            // SIGCHLD from a child of the test process interrupts the wait; that is no hang-up.
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return }
            for (from, to) in [(0, b), (1, a)] where fds[from].revents != 0 {
                let n = buffer.withUnsafeMutableBytes { read(fds[from].fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return }
                var sent = 0
                while sent < n {
                    let m = buffer.withUnsafeBytes { write(to, $0.baseAddress! + sent, n - sent) }
                    guard m > 0 else { return }
                    sent += m
                }
            }
        }
    }
}
