import Foundation

/// Buffered text output to a file or stdout: exports write in 64 KiB pieces, never the whole file
/// in memory.
public final class TextSink {
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private let closesHandle: Bool

    public init(handle: FileHandle, closesHandle: Bool = false) {
        self.handle = handle
        self.closesHandle = closesHandle
        buffer.reserveCapacity(65_536)
    }

    /// Creates (or truncates) `path`.
    public convenience init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        self.init(handle: handle, closesHandle: true)
    }

    public func write(_ text: String) throws {
        buffer += text.utf8
        if buffer.count >= 65_536 { try flush() }
    }

    public func flush() throws {
        guard !buffer.isEmpty else { return }
        try handle.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    public func close() throws {
        try flush()
        if closesHandle { try handle.close() }
    }
}
