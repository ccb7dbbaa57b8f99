import FoundationEssentials
import MTTCore
import Glibc
import Synchronization

/// A serial device in raw mode (8N1, no flow control), read line by line on a thread of its own.
///
/// Lines end in LF, with or without CR. The thread hands each line to an AsyncStream; the stream
/// ends when the device goes away (unplugged, the emulator closed its side) and `closeReason`
/// says why.
public final class SerialPort: Sendable {
    public let path: String
    private let descriptor: SharedDescriptor
    private var fd: Int32 { descriptor.number }
    private let state = Mutex(State())

    private struct State {
        var closeReason: String?
    }

    public init(path: String, baud: Int) throws(SerialPortError) {
        guard let speed = Self.speed(for: baud) else { throw .unsupportedBaud(baud) }
        let fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw .cannotOpen(path: path, message: String(cString: strerror(errno))) }
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else {
            let message = String(cString: strerror(errno))
            Glibc.close(fd)
            throw .configuration(path: path, message: message)
        }
        cfmakeraw(&settings)
        settings.c_cflag &= ~(tcflag_t(CSTOPB) | tcflag_t(CRTSCTS) | tcflag_t(PARENB))
        settings.c_cflag |= tcflag_t(CLOCAL) | tcflag_t(CREAD) | tcflag_t(CS8)
        settings.c_iflag &= ~(tcflag_t(IXON) | tcflag_t(IXOFF) | tcflag_t(IXANY))
        cfsetispeed(&settings, speed)
        cfsetospeed(&settings, speed)
        guard tcsetattr(fd, TCSANOW, &settings) == 0 else {
            let message = String(cString: strerror(errno))
            Glibc.close(fd)
            throw .configuration(path: path, message: message)
        }
        self.path = path
        descriptor = SharedDescriptor(taking: fd)
    }

    deinit {
        close()
    }

    /// Why the device stopped, once it has.
    public var closeReason: String? { state.withLock { $0.closeReason } }

    /// Lets the device go; the reader thread ends within its next poll.
    public func close() {
        descriptor.release()
    }

    /// Lines as they arrive. Call once; the reader thread ends with the device or `close()`.
    public func lines() -> AsyncStream<[UInt8]> {
        let (stream, continuation) = AsyncStream.makeStream(of: [UInt8].self)
        BlockingThread.start(name: "mtt-serial") { [self] in self.readLoop(into: continuation) }
        return stream
    }

    /// Writes all of `bytes`, waiting at most `timeout` seconds for the device to take them.
    public func write(_ bytes: [UInt8], timeout: Double = 2) throws(SerialPortError) {
        var offset = 0
        let deadline = Self.now() + timeout
        while offset < bytes.count {
            if descriptor.isReleased { throw .closed(path: path) }
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                offset += n
                continue
            }
            let code = errno
            if n < 0 && code != EAGAIN && code != EINTR {
                throw code == EIO || code == ENXIO || code == EBADF ? .closed(path: path) : .io(path: path, message: String(cString: strerror(code)))
            }
            let left = deadline - Self.now()
            if left <= 0 { throw .timedOut(path: path, operation: "write") }
            var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            _ = poll(&poller, 1, Int32(min(left, 0.2) * 1000))
        }
    }

    private func readLoop(into continuation: AsyncStream<[UInt8]>.Continuation) {
        var splitter = LineSplitter()
        let end = DescriptorReadLoop.run(fd, isClosed: { descriptor.isReleased }) { bytes in
            for line in splitter.feed(bytes) { continuation.yield(line) }
        }
        // 0 bytes or EIO after poll said readable: the other end is gone.
        if end != .closed {
            state.withLock { if $0.closeReason == nil { $0.closeReason = "\(path) was unplugged or closed (\(end.reason))" } }
        }
        continuation.finish()
    }

    private static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    private static func speed(for baud: Int) -> speed_t? {
        switch baud {
        case 9600: return speed_t(B9600)
        case 19200: return speed_t(B19200)
        case 38400: return speed_t(B38400)
        case 57600: return speed_t(B57600)
        case 115200: return speed_t(B115200)
        case 230400: return speed_t(B230400)
        default: return nil
        }
    }
}
