import Glibc
import MTTCore

/// A pseudo-terminal: the master side plays a device (the modem emulators, test feeds), the slave
/// side is a path any program opens as it would `/dev/ttyUSB0`.
///
/// Opened through `/dev/ptmx` and its ioctls, because glibc declares `posix_openpt` and friends only
/// under `_XOPEN_SOURCE`, which Swift's Glibc module does not define.
public final class PseudoTerminalPair: Sendable {
    private let descriptor: SharedDescriptor
    public var master: Int32 { descriptor.number }
    public let slavePath: String

    // From <asm-generic/ioctls.h>; the same on x86_64, arm and arm64.
    private static let getPTYNumber: UInt = 0x8004_5430  // TIOCGPTN
    private static let setPTYLock: UInt = 0x4004_5431  // TIOCSPTLCK

    public init() throws(SerialPortError) {
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard master >= 0 else { throw .cannotOpen(path: "/dev/ptmx", message: String(cString: strerror(errno))) }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard ioctl(master, Self.setPTYLock, &unlock) == 0, ioctl(master, Self.getPTYNumber, &number) == 0 else {
            let message = String(cString: strerror(errno))
            Glibc.close(master)
            throw .cannotOpen(path: "/dev/ptmx", message: message)
        }
        slavePath = "/dev/pts/\(number)"
        descriptor = SharedDescriptor(taking: master)
        // Raw from the start: a cooked pty would echo a device's answers back to it as commands.
        let slave = open(slavePath, O_RDWR | O_NOCTTY | O_CLOEXEC)
        if slave >= 0 {
            var settings = termios()
            tcgetattr(slave, &settings)
            cfmakeraw(&settings)
            tcsetattr(slave, TCSANOW, &settings)
            Glibc.close(slave)
        }
    }

    /// Closes the master side: to whoever has the slave open, the device was unplugged. The
    /// emulator's thread may still be reading or writing `master`, so its number stays taken.
    public func close() {
        descriptor.release()
    }

    /// Whether `close()` was called.
    public var isClosed: Bool { descriptor.isReleased }
}
