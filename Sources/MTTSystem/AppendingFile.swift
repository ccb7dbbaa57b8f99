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

    /// Opens `path` to append, as a regular file only: a symbolic link is refused (O_NOFOLLOW: a
    /// link to /etc/passwd in a folder another user can write had lines appended to it), and so is
    /// a FIFO or a device (opened without blocking, then refused: a FIFO nobody read from held the
    /// sync in open(), deaf to every signal).
    static func openRegularFile(_ path: String) throws(SyncTransportError) -> Int32 {
        let fd = Glibc.open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o644)
        // Trying again cannot make a missing folder, a read-only medium or a link a file.
        guard fd >= 0 else {
            let code = errno
            if code == ELOOP { throw .untrusted("\(path) is a symbolic link: the file target writes only to the file it is named (give the link's target)") }
            if code == ENXIO { throw .untrusted("\(path) is not a regular file (a FIFO nobody reads): the file target writes to files") }
            throw .untrusted("cannot open \(path): \(String(cString: strerror(code)))")
        }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw .untrusted("\(path) is not a regular file: the file target writes to files")
        }
        _ = fcntl(fd, F_SETFL, O_WRONLY | O_APPEND)
        return fd
    }

    public func send(_ request: FileAppend) async throws {
        try descriptors.withLock { open throws(SyncTransportError) in
            let fd: Int32
            if let known = open[request.path] {
                fd = known
            } else {
                fd = try Self.openRegularFile(request.path)
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
