import Foundation
import Glibc
import Synchronization

/// What systemd would hear from a service: a Unix datagram socket bound in a temporary folder, for
/// NOTIFY_SOCKET; every message it receives is kept.
public final class NotifySocket: @unchecked Sendable {
    public let path: String
    private let fd: Int32
    private let folder = TemporaryDirectory("mtt-notify")
    private let received = Mutex<[(message: String, at: ContinuousClock.Instant)]>([])

    public init() throws {
        path = folder.file("notify.sock")
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0 }
        }
        guard bound else { throw BrowserError(reason: "cannot bind \(path)") }
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = recv(fd, &buffer, buffer.count, 0)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return }
                let text = String(decoding: buffer[0..<n], as: UTF8.self)
                received.withLock { $0.append((text, .now)) }
            }
        }
        thread.start()
    }

    deinit {
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
    }

    /// Every message so far, with when it came.
    public var messages: [(message: String, at: ContinuousClock.Instant)] { received.withLock { $0 } }
}
