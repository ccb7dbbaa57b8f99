import FoundationEssentials
import Glibc

/// An advisory `flock` held by this process until released or until it exits (a `kill -9` too:
/// the kernel drops it with the process, so it is never left stale).
///
/// Never taken on the database file itself: closing any descriptor of that file would drop the
/// POSIX locks SQLite holds on it.
final class FileLock: Sendable {
    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Waits for the lock on the folder `path`; nil when the folder cannot be opened, where
    /// there is nothing to serialise against.
    static func waiting(onFolder path: String) -> FileLock? {
        let fd = open(path.isEmpty ? "." : path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else {
                close(fd)
                return nil
            }
        }
        return FileLock(descriptor: fd)
    }

    /// The lock on `path` if no other process holds it; nil when one does. Throws when the lock
    /// file cannot be made.
    static func ifFree(at path: String) throws -> FileLock? {
        let fd = open(path, O_RDWR | O_CLOEXEC | O_CREAT, 0o600)
        guard fd >= 0 else { throw StoreError.cannotCreate(path: path, reason: String(cString: strerror(errno))) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            return nil
        }
        return FileLock(descriptor: fd)
    }

    func release() {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
