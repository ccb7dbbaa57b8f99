import FoundationEssentials
import MTTCore
import Glibc

/// `mtt fake-node --listen unix:PATH`: a Unix SOCK_SEQPACKET socket (one ATT PDU per message)
/// that centrals on this machine connect to with `--node unix:PATH`.
public struct UnixATTListener: ATTListener {
    public let path: String
    private let fd: Int32

    public init(path: String) throws(BearerError) {
        try Self.removeStaleSocket(at: path)
        let fd = socket(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .system(call: "socket", message: String(cString: strerror(errno))) }
        var address = UnixAddress(path: path)
        guard address.withSockaddr({ bind(fd, $0, $1) }) == 0, listen(fd, 4) == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw .system(call: "listen on \(path)", message: message)
        }
        self.path = path
        self.fd = fd
    }

    /// Removes what a listener that died left at `path`, and nothing else: a file that is not a
    /// socket, or a socket another emulator still answers on, is refused.
    static func removeStaleSocket(at path: String) throws(BearerError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            throw .system(call: "listen on \(path)", message: "a file that is not a socket is there; mtt left it untouched")
        }
        // Connecting as mtt's own node driver does tells a live listener from a dead one.
        if let probe = try? SeqPacketBearer.connect(unixPath: path) {
            probe.close()
            throw .system(call: "listen on \(path)", message: "another emulator is listening there")
        }
        unlink(path)
    }

    /// Removes the socket file, so the path is free for the next emulator (a file left behind is
    /// a stale socket the next one has to probe and remove).
    public func removeSocketFile() {
        var info = stat()
        if lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK { unlink(path) }
    }

    public var address: String { "unix:\(path)" }

    public func accept() async throws(BearerError) -> any ATTBearer {
        SeqPacketBearer(fd: try await acceptOffThePool(fd), name: address)
    }
}

/// accept(2) on a thread of its own: the cooperative pool must never block.
func acceptOffThePool(_ fd: Int32) async throws(BearerError) -> Int32 {
    let (connection, code) = await withCheckedContinuation { continuation in
        BlockingThread.start(name: "mtt-node-accept") {
            let connection = Glibc.accept(fd, nil, nil)
            continuation.resume(returning: (connection, errno))
        }
    }
    guard connection >= 0 else { throw .system(call: "accept", message: String(cString: strerror(code))) }
    return connection
}
