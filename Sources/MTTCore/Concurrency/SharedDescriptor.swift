import Glibc
import Synchronization

/// A descriptor that a reader or writer thread may still be using when its owner lets it go.
///
/// Closing such a descriptor frees its number, and the kernel hands that number to the next file
/// or socket the process opens; the other thread's next poll, read or write then works on that one.
/// In a test process this fed a modem emulator's reply into an HTTP connection (the upload read
/// "not HTTP" and sent the record again) and closed another connection under its server. In mtt
/// it could read from the database or the MQTT socket. So `release()` lets go of the file (the
/// other end sees the device or connection closed, as with `close`) by putting /dev/null in its
/// place, which keeps the number taken; a late read there gets end of file, a late write goes
/// nowhere. The number itself is closed in `deinit`, when no thread holds this any more.
public final class SharedDescriptor: Sendable {
    public let number: Int32
    private let released = Mutex(false)

    /// Takes ownership of `number`.
    public init(taking number: Int32) {
        self.number = number
    }

    deinit {
        close(number)
    }

    public var isReleased: Bool { released.withLock { $0 } }

    /// Lets go of the file; true the first time.
    @discardableResult
    public func release() -> Bool {
        released.withLock { released in
            guard !released else { return false }
            released = true
            let null = open("/dev/null", O_RDWR | O_CLOEXEC)
            if null >= 0 {
                // dup2 closes the old file and takes the number in one step. (dup3, which would
                // set close-on-exec in the same step, is not in Swift's Glibc module; a child
                // started in between inherits /dev/null, which is harmless.)
                _ = dup2(null, number)
                _ = fcntl(number, F_SETFD, FD_CLOEXEC)
                close(null)
            } else {
                // Out of descriptors: a socket can still be ended in place; anything else stays
                // open until deinit rather than risk its number.
                shutdown(number, Int32(SHUT_RDWR))
            }
            return true
        }
    }
}
