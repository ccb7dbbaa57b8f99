import Synchronization

/// A target's upload right on one database; see `Store.claimSync`.
public final class SyncClaim: Sendable {
    private let lock: FileLock
    private let released = Mutex(false)

    init(_ lock: FileLock) {
        self.lock = lock
    }

    public func release() {
        guard released.withLock({ r in defer { r = true }; return !r }) else { return }
        lock.release()
    }

    deinit { release() }
}
