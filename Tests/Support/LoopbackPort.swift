import Foundation
import Synchronization

/// TCP ports on 127.0.0.1 for the servers the tests start.
public enum LoopbackPort {
    /// A port for a test server, different from every other this test process hands out, and free
    /// when handed out. Taken below Linux's ephemeral range (32768 and up), never from it: a port
    /// the kernel picked for `bind(0)` could be picked again for another test's server a moment
    /// later, and a second mosquitto that cannot bind exits while the first one answers on the
    /// port, so two tests would share a broker and see each other's messages (CI saw it).
    ///
    /// Two test processes side by side (a clean clone's suite beside the work tree's) never hand
    /// out the same port either: each takes blocks of 100 ports under a file lock it holds until it
    /// exits. Without them, both could find a port free and give it to a child (mosquitto, an mtt
    /// with --web) that had not bound it yet; the second child then failed with "Address already
    /// in use" (seen in CI as a collect run that stored nothing).
    public static func free() -> Int {
        while true {
            let port = next.withLock { next -> Int in
                if next.port == next.end { next = reserveBlock(after: next.block) }
                defer { next.port += 1 }
                return next.port
            }
            if canBind(port) { return port }
        }
    }

    private struct Cursor {
        var block: Int
        var port: Int
        var end: Int
    }

    private static let firstPort = 20_000
    private static let blockSize = 100
    private static let blocks = 120
    private static let next = Mutex(reserveBlock(after: Int.random(in: 0..<blocks)))

    /// The next block after `block` (round the range) that no other test process holds. Its lock's
    /// descriptor stays open until the process exits, which releases it.
    private static func reserveBlock(after block: Int) -> Cursor {
        let folder = NSTemporaryDirectory() + "mtt-test-ports"
        mkdir(folder, 0o777)
        chmod(folder, 0o1777)
        for step in 1...blocks {
            let candidate = (block + step) % blocks
            let fd = open("\(folder)/\(candidate).lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o666)
            guard fd >= 0 else { continue }
            if flock(fd, LOCK_EX | LOCK_NB) == 0 {
                let start = firstPort + candidate * blockSize
                return Cursor(block: candidate, port: start, end: start + blockSize)
            }
            close(fd)
        }
        // Every block held (120 test processes at once): share one; canBind still checks.
        let start = firstPort + ((block + 1) % blocks) * blockSize
        return Cursor(block: (block + 1) % blocks, port: start, end: start + blockSize)
    }

    private static func canBind(_ port: Int) -> Bool {
        onLoopback(port) { fd, address, length in bind(fd, address, length) }
    }

    /// True once something accepts connections on the port.
    public static func isListening(_ port: Int) -> Bool {
        onLoopback(port) { fd, address, length in Glibc.connect(fd, address, length) }
    }

    /// A TCP connection to 127.0.0.1:`port`, open; nil when nothing accepts there.
    public static func connect(port: Int) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard onLoopback(port, fd, { fd, address, length in Glibc.connect(fd, address, length) }) else {
            close(fd)
            return nil
        }
        return fd
    }

    /// Whether `call` succeeds on a new TCP socket with 127.0.0.1:`port`; the socket is closed after.
    private static func onLoopback(_ port: Int, _ call: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        return onLoopback(port, fd, call)
    }

    private static func onLoopback(_ port: Int, _ fd: Int32, _ call: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Bool {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                call(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// A listening TCP socket on 127.0.0.1 at a port of the kernel's choosing, for servers written
    /// in the tests (the port is read back, so no other server can be handed it meanwhile).
    public static func listen() throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound, Glibc.listen(fd, 64) == 0 else {
            close(fd)
            throw LoopbackHTTPServerError(reason: "cannot listen on 127.0.0.1: \(String(cString: strerror(errno)))")
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// The next connection on a listening socket; nil once the listener is shut down.
    public static func accept(on listener: Int32) -> Int32? {
        while true {
            let fd = Glibc.accept(listener, nil, nil)
            if fd >= 0 { return fd }
            if errno != EINTR { return nil }
        }
    }

    public static func waitUntilListening(_ port: Int, timeout: TimeInterval = 10) -> Bool {
        eventuallyBlocking(timeout: timeout) { isListening(port) }
    }
}
