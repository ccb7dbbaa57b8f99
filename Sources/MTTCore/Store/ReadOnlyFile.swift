import FoundationEssentials
import Glibc

/// A file read a piece at a time, closed when the reader is done with it. (FoundationEssentials,
/// which MTTCore uses, has no FileHandle.)
public final class ReadOnlyFile {
    private let descriptor: Int32

    /// Nil when the file cannot be opened.
    public init?(path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        descriptor = fd
    }

    deinit {
        close(descriptor)
    }

    /// Up to `count` bytes; empty at the end of the file.
    public func read(upTo count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        while true {
            let got = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, count) }
            if got >= 0 { return Array(bytes.prefix(got)) }
            guard errno == EINTR else { throw CocoaError(.fileReadUnknown) }
        }
    }

    /// The rest of the file, read until `read` says it ended: the way to read `/proc`, whose files
    /// have no size and come a page at a time (`String(contentsOfFile:)` stopped after the first 4 KiB
    /// of /proc/self/maps, so `StartUpPages` released only the first 23 of 160 mappings).
    public func readToEnd() throws -> [UInt8] {
        var all: [UInt8] = []
        while true {
            let piece = try read(upTo: 65536)
            if piece.isEmpty { return all }
            all += piece
        }
    }
}
