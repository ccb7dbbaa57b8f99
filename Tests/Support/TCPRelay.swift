import Foundation
import Synchronization

/// A TCP relay on loopback to another local port that a test can cut, as a network that goes away
/// in the field: while cut, open connections are closed and new ones are closed at once.
public final class TCPRelay: Sendable {
    public let port: Int
    private let target: Int
    private let listener: Int32
    private let state = Mutex<(cut: Bool, stopped: Bool, fds: [Int32])>((false, false, []))

    public init(to target: Int) throws {
        self.target = target
        (listener, port) = try LoopbackPort.listen()
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit { stop() }

    /// Closes every relayed connection and refuses new ones until `mend()`.
    public func cut() {
        let fds = state.withLock { s in
            s.cut = true
            defer { s.fds.removeAll() }
            return s.fds
        }
        for fd in fds { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    public func mend() {
        state.withLock { $0.cut = false }
    }

    public func stop() {
        let first = state.withLock { s in
            defer { s.stopped = true }
            return !s.stopped
        }
        guard first else { return }
        cut()
        shutdown(listener, Int32(SHUT_RDWR))
    }

    private func acceptLoop() {
        defer { close(listener) }
        while let client = LoopbackPort.accept(on: listener) {
            if state.withLock({ $0.stopped }) {
                close(client)
                return
            }
            guard !state.withLock({ $0.cut }), let server = LoopbackPort.connect(port: target) else {
                close(client)
                continue
            }
            state.withLock { $0.fds += [client, server] }
            for (from, to) in [(client, server), (server, client)] {
                let thread = Thread { Self.pump(from, to) }
                thread.start()
            }
        }
    }

    /// Copies bytes one way until either side closes, then closes both.
    private static func pump(_ from: Int32, _ to: Int32) {
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let n = read(from, &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            var sent = 0
            while sent < n {
                let m = buffer.withUnsafeBytes { send(to, $0.baseAddress! + sent, n - sent, Int32(MSG_NOSIGNAL)) }
                if m < 0 && errno == EINTR { continue }
                if m <= 0 { break }
                sent += m
            }
            if sent < n { break }
        }
        shutdown(from, Int32(SHUT_RDWR))
        shutdown(to, Int32(SHUT_RDWR))
    }
}
