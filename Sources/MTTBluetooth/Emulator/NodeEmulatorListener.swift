import FoundationEssentials
import MTTCore
import Glibc

/// `mtt fake-node --listen unix:PATH`: the node emulator as a process of its own, serving one
/// connection at a time on a Unix SOCK_SEQPACKET socket (one ATT PDU per message).
public struct NodeEmulatorListener: Sendable {
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

    /// Serves connections one after another with one emulated node, which keeps its state
    /// (keys, frame counter) across connections as a real node does.
    public func serve(_ emulator: NodeEmulator) async throws(BearerError) {
        while true {
            let connection = await Self.accept(fd)
            guard connection >= 0 else { throw .system(call: "accept", message: String(cString: strerror(errno))) }
            await emulator.serve(SeqPacketBearer(fd: connection, name: "unix:\(path)"))
        }
    }

    /// accept(2) off the cooperative pool, which must never block.
    private static func accept(_ fd: Int32) async -> Int32 {
        await withCheckedContinuation { continuation in
            BlockingThread.start(name: "mtt-node-accept") { continuation.resume(returning: Glibc.accept(fd, nil, nil)) }
        }
    }
}
