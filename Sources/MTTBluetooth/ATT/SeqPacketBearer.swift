import FoundationEssentials
import MTTCore
import Glibc
import Synchronization

/// An ATT bearer over any SOCK_SEQPACKET socket: each message is one PDU. A thread of its own reads
/// the socket and hands copies to the stream.
public final class SeqPacketBearer: ATTBearer {
    public let name: String
    public let mtuLimit: UInt16?
    private let fd: Int32
    private let state = Mutex<(closed: Bool, reason: String?)>((false, nil))

    /// Takes ownership of `fd`.
    public init(fd: Int32, name: String, mtuLimit: UInt16? = nil) {
        self.fd = fd
        self.name = name
        self.mtuLimit = mtuLimit
    }

    // The descriptor is released only here, when no thread can use it any more (the reader
    // thread holds the bearer until it ends): closed earlier, its number could be handed to a
    // socket opened meanwhile, and a late poll, recv or send would read or write someone else's
    // connection. `close()` only shuts the link down, which wakes the reader.
    deinit { Glibc.close(fd) }

    /// Two connected bearers in this process: the in-process link to the node emulator.
    public static func pair(name: String = "fake") throws(BearerError) -> (client: SeqPacketBearer, server: SeqPacketBearer) {
        var fds: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw .system(call: "socketpair", message: String(cString: strerror(errno)))
        }
        return (SeqPacketBearer(fd: fds[0], name: name), SeqPacketBearer(fd: fds[1], name: name + "-server"))
    }

    /// Connects to an emulator listening on a Unix SOCK_SEQPACKET socket (`unix:PATH`).
    public static func connect(unixPath path: String) throws(BearerError) -> SeqPacketBearer {
        let fd = socket(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .system(call: "socket", message: String(cString: strerror(errno))) }
        var address = UnixAddress(path: path)
        guard address.withSockaddr({ Glibc.connect(fd, $0, $1) }) == 0 else {
            let message = String(cString: strerror(errno))
            Glibc.close(fd)
            throw .system(call: "connect to \(path)", message: message)
        }
        return SeqPacketBearer(fd: fd, name: "unix:\(path)")
    }

    public var closeReason: String? { state.withLock { $0.reason } }

    public func send(_ pdu: [UInt8]) throws(BearerError) {
        if state.withLock({ $0.closed }) { throw .closed(closeReason ?? "closed") }
        let n = pdu.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard n == pdu.count else {
            let reason = String(cString: strerror(errno))
            markClosed(reason)
            throw .closed(reason)
        }
    }

    public func incoming() -> AsyncStream<[UInt8]> {
        let (stream, continuation) = AsyncStream.makeStream(of: [UInt8].self)
        BlockingThread.start(name: "mtt-att-\(name)") { [self] in
            let end = DescriptorReadLoop.run(self.fd, isClosed: { self.state.withLock { $0.closed } }) { pdu in
                continuation.yield(Array(pdu))
            }
            if end != .closed { self.markClosed(end == .endOfStream ? "the peer closed the link" : end.reason) }
            continuation.finish()
        }
        return stream
    }

    public func close() {
        let wasOpen = state.withLock { s in
            defer { s.closed = true; if s.reason == nil { s.reason = "closed by mtt" } }
            return !s.closed
        }
        if wasOpen { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    private func markClosed(_ reason: String) {
        state.withLock { s in
            if s.reason == nil { s.reason = reason }
        }
    }
}

/// A `sockaddr_un` for a filesystem path.
struct UnixAddress {
    var storage = sockaddr_un()

    init(path: String) {
        storage.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8.prefix(107)) + [0]
        withUnsafeMutableBytes(of: &storage.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
    }

    mutating func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }
}
