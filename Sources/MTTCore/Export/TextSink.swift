import FoundationEssentials
import Glibc
import Synchronization

/// The files being written now, so that a stop request can remove them and leave the files they
/// would replace as they were.
private let unfinishedFiles = Mutex<Set<String>>([])

/// Buffered text output to a file, stdout or a stream (an HTTP answer): exports write in 64 KiB
/// pieces, never the whole file in memory. A write that fails (a full disk, a closed pipe, a client
/// gone) throws `OutputError` with the reason. A file is written beside its name and takes the name
/// only when complete (`close`): a report or export that fails, or is stopped, leaves the previous
/// file as it was.
public final class TextSink {
    private enum Destination {
        case descriptor(Int32, closes: Bool)
        case pieces((_ bytes: [UInt8]) throws(OutputError) -> Void)
    }

    private let destination: Destination
    private let target: String
    private var buffer: [UInt8] = []
    /// The file written until `close` renames it to `target`.
    private var unfinished: String?

    /// Writes to standard output.
    public init() {
        destination = .descriptor(STDOUT_FILENO, closes: false)
        target = "stdout"
        buffer.reserveCapacity(65_536)
    }

    /// Writes `path` (mode 0644 less the umask), by way of a file beside it; a device or a pipe
    /// (`/dev/stdout`, a FIFO) is written directly.
    public init(path: String) throws(OutputError) {
        var status = stat()
        let exists = stat(path, &status) == 0
        if exists && status.st_mode & S_IFMT != S_IFREG {
            let fd = open(path, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { throw OutputError(target: path, errno: errno) }
            destination = .descriptor(fd, closes: true)
            target = path
            buffer.reserveCapacity(65_536)
            return
        }
        // Through a symbolic link, the file it names takes the new content, not the link's name.
        let path = exists ? (realpath(path, nil).map { resolved in defer { free(resolved) }; return String(cString: resolved) } ?? path) : path
        let folder = PathText.folder(of: path)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let temporary = (folder.isEmpty ? "" : folder + "/") + ".\(name).mtt-\(getpid()).part"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw OutputError(target: path, errno: errno) }
        destination = .descriptor(fd, closes: true)
        target = path
        unfinished = temporary
        unfinishedFiles.withLock { _ = $0.insert(temporary) }
        buffer.reserveCapacity(65_536)
    }

    deinit {
        // Never closed, or closing failed: the file was not finished.
        guard let unfinished else { return }
        if case .descriptor(let fd, closes: true) = destination { _ = Glibc.close(fd) }
        Self.discard(unfinished)
    }

    /// Removes every file not finished yet (a stop request; mtt exits next).
    public static func discardUnfinished() {
        for path in unfinishedFiles.withLock({ $0 }) { unlink(path) }
    }

    private static func discard(_ path: String) {
        unlink(path)
        unfinishedFiles.withLock { _ = $0.remove(path) }
    }

    /// Hands each 64 KiB piece to `pieces`, which may block (a slow reader holds the writer back
    /// rather than letting the pieces pile up in memory).
    public init(target: String, pieces: @escaping (_ bytes: [UInt8]) throws(OutputError) -> Void) {
        destination = .pieces(pieces)
        self.target = target
        buffer.reserveCapacity(65_536)
    }

    /// The file being written until `close` gives it its name; nil for stdout, a stream, a device
    /// or a pipe. A format that is a database of its own (GeoPackage) is written there.
    public var unfinishedPath: String? { unfinished }

    public func write(_ text: String) throws(OutputError) {
        buffer += text.utf8
        if buffer.count >= 65_536 { try flush() }
    }

    public func flush() throws(OutputError) {
        guard !buffer.isEmpty else { return }
        switch destination {
        case .descriptor(let fd, _): try OutputError.writeAll(buffer, to: fd, target: target)
        case .pieces(let hand): try hand(buffer)
        }
        buffer.removeAll(keepingCapacity: true)
    }

    public func close() throws(OutputError) {
        try flush()
        guard case .descriptor(let fd, closes: true) = destination else { return }
        if let unfinished {
            // On the disk before it takes the name: a power cut leaves the old file or the new one.
            guard fsync(fd) == 0 else { throw OutputError(target: target, errno: errno) }
            let closed = Glibc.close(fd)
            self.unfinished = nil
            guard closed == 0 else {
                let error = errno
                Self.discard(unfinished)
                throw OutputError(target: target, errno: error)
            }
            guard rename(unfinished, target) == 0 else {
                let error = errno
                Self.discard(unfinished)
                throw OutputError(target: target, errno: error)
            }
            unfinishedFiles.withLock { _ = $0.remove(unfinished) }
        } else if Glibc.close(fd) != 0 {
            throw OutputError(target: target, errno: errno)
        }
    }
}
