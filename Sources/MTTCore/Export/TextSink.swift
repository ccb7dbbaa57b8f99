import FoundationEssentials
import Glibc

/// Buffered text output to a file, stdout or a stream (an HTTP answer): exports write in 64 KiB
/// pieces, never the whole file in memory. A write that fails (a full disk, a closed pipe, a client
/// gone) throws `OutputError` with the reason.
public final class TextSink {
    private enum Destination {
        case descriptor(Int32, closes: Bool)
        case pieces((_ bytes: [UInt8]) throws(OutputError) -> Void)
    }

    private let destination: Destination
    private let target: String
    private var buffer: [UInt8] = []

    /// Writes to standard output.
    public init() {
        destination = .descriptor(STDOUT_FILENO, closes: false)
        target = "stdout"
        buffer.reserveCapacity(65_536)
    }

    /// Creates (or truncates) `path`, mode 0644 less the umask.
    public init(path: String) throws(OutputError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw OutputError(target: path, errno: errno) }
        destination = .descriptor(fd, closes: true)
        target = path
        buffer.reserveCapacity(65_536)
    }

    /// Hands each 64 KiB piece to `pieces`, which may block (a slow reader holds the writer back
    /// rather than letting the pieces pile up in memory).
    public init(target: String, pieces: @escaping (_ bytes: [UInt8]) throws(OutputError) -> Void) {
        destination = .pieces(pieces)
        self.target = target
        buffer.reserveCapacity(65_536)
    }

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
        if case .descriptor(let fd, closes: true) = destination, Glibc.close(fd) != 0 { throw OutputError(target: target, errno: errno) }
    }
}
