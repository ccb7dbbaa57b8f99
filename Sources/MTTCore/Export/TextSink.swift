import Foundation

/// Buffered text output to a file or stdout: exports write in 64 KiB pieces, never the whole file
/// in memory. A write that fails (a full disk, a closed pipe) throws `OutputError` with the reason.
public final class TextSink {
    private let descriptor: Int32
    private let target: String
    private var buffer: [UInt8] = []
    private let closesDescriptor: Bool

    /// Writes to standard output.
    public init() {
        descriptor = STDOUT_FILENO
        target = "stdout"
        closesDescriptor = false
        buffer.reserveCapacity(65_536)
    }

    /// Creates (or truncates) `path`, mode 0644 less the umask.
    public init(path: String) throws(OutputError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw OutputError(target: path, errno: errno) }
        descriptor = fd
        target = path
        closesDescriptor = true
        buffer.reserveCapacity(65_536)
    }

    public func write(_ text: String) throws(OutputError) {
        buffer += text.utf8
        if buffer.count >= 65_536 { try flush() }
    }

    public func flush() throws(OutputError) {
        guard !buffer.isEmpty else { return }
        try OutputError.writeAll(buffer, to: descriptor, target: target)
        buffer.removeAll(keepingCapacity: true)
    }

    public func close() throws(OutputError) {
        try flush()
        if closesDescriptor, Glibc.close(descriptor) != 0 { throw OutputError(target: target, errno: errno) }
    }
}
