import FoundationEssentials
import Glibc
import MTTCore
import Synchronization

/// The file target's transport: appends each request's lines to its file and makes them durable
/// (fdatasync) before answering, so the ledger only writes down lines that are on the disk. One
/// append at a time, so lines from concurrent requests never interleave.
public final class AppendingFile: SyncTransport {
    private let descriptors = Mutex<[String: Int32]>([:])

    public init() {}

    deinit {
        descriptors.withLock { open in for fd in open.values { close(fd) } }
    }

    public func send(_ request: FileAppend) async throws {
        try descriptors.withLock { open throws(SyncTransportError) in
            let fd: Int32
            if let known = open[request.path] {
                fd = known
            } else {
                fd = Glibc.open(request.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
                // Trying again cannot make a missing folder or a read-only medium writable.
                guard fd >= 0 else { throw .untrusted("cannot open \(request.path): \(String(cString: strerror(errno)))") }
                open[request.path] = fd
            }
            // A write cut short (a full disk) is taken back, so a retry never leaves half a line.
            let start = lseek(fd, 0, SEEK_END)
            do {
                try OutputError.writeAll(Array(request.bytes), to: fd, target: request.path)
            } catch {
                if start >= 0 { _ = ftruncate(fd, start) }
                throw .connectionFailed("\(error)")
            }
            guard fdatasync(fd) == 0 else {
                throw .connectionFailed("cannot flush \(request.path) to the disk: \(String(cString: strerror(errno)))")
            }
        }
    }
}
