import Glibc

/// The loop every blocking reader of a device or socket runs on its own thread (a BLE link's ATT
/// socket, a serial port): wait up to 200 ms for bytes so a close is noticed, read, hand the
/// bytes on; interruptions and spurious wake-ups go round again; the end of the stream or an
/// error ends it.
public enum DescriptorReadLoop {
    /// Why a loop ended.
    public enum End: Sendable, Equatable {
        /// `isClosed` said so: the owner closed it.
        case closed
        /// The other end went away: 0 bytes after the descriptor was readable.
        case endOfStream
        /// A read failed with this errno.
        case failed(Int32)

        /// The reason in words, for a log line.
        public var reason: String {
            switch self {
            case .closed: "closed"
            case .endOfStream: "end of file"
            case .failed(let code): String(cString: strerror(code))
            }
        }
    }

    /// Reads `fd` until `isClosed()` or the stream ends, giving `received` each piece as it
    /// arrives (a datagram socket's whole packet: the buffer holds `bufferSize` bytes).
    public static func run(_ fd: Int32, bufferSize: Int = 1024, isClosed: () -> Bool, received: (ArraySlice<UInt8>) -> Void) -> End {
        var buffer = [UInt8](repeating: 0, count: bufferSize)
        while !isClosed() {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, 200)
            if ready == 0 || (ready < 0 && errno == EINTR) { continue }
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                received(buffer[..<n])
                continue
            }
            if n < 0 && (errno == EAGAIN || errno == EINTR) { continue }
            // A `SharedDescriptor` the owner released reads as end of file: that is its close.
            if isClosed() { return .closed }
            return n == 0 ? .endOfStream : .failed(errno)
        }
        return .closed
    }
}
