import Glibc
import MTTCore
import Synchronization

/// Everything mtt prints on stdout goes through here, so that an output that cannot be written
/// (a full disk, a closed pipe, a closed descriptor) is noticed once and ends the command cleanly
/// instead of crashing it; stderr lines are best effort.
enum StandardOutput {
    private struct State {
        var failure: OutputError?
        var onFailure: (@Sendable (OutputError) -> Void)?
    }

    private static let state = Mutex(State())

    /// The first failed write, if any.
    static var failure: OutputError? { state.withLock { $0.failure } }

    /// Whether stdout's reader went away (`mtt events | head`): a normal end, not a failure, for
    /// every command (collect also takes it as a stop request).
    static var endedByClosedPipe: Bool { state.withLock { $0.failure?.isClosedPipe == true } }

    /// Called once, on the first failed write (collect stops its run there).
    static func onFailure(_ handler: @escaping @Sendable (OutputError) -> Void) {
        state.withLock { $0.onFailure = handler }
    }

    /// Makes sure descriptors 0, 1 and 2 are open before mtt opens anything else: a closed one would
    /// be handed to the next file opened (the database), and text meant for stdout written into it.
    /// A stdout that was closed stays a failed output, as the user asked for nothing to be written.
    static func guardStandardDescriptors() {
        for fd in Int32(0)...2 where fcntl(fd, F_GETFD) == -1 {
            let placeholder = open("/dev/null", O_RDWR)
            if placeholder != fd && placeholder >= 0 { close(placeholder) }
            if fd == 1 { state.withLock { $0.failure = OutputError(target: "stdout", errno: EBADF) } }
        }
    }

    /// Writes the bytes unless an earlier write failed; returns whether they were written.
    @discardableResult
    static func write(_ bytes: [UInt8]) -> Bool {
        if let failure {
            // A stdout closed before mtt started: the first write is where that is noticed.
            notifyOnce(failure)
            return false
        }
        do {
            try OutputError.writeAll(bytes, to: 1, target: "stdout")
            return true
        } catch {
            state.withLock { s in if s.failure == nil { s.failure = error } }
            notifyOnce(error)
            return false
        }
    }

    private static func notifyOnce(_ error: OutputError) {
        let handler = state.withLock { s -> (@Sendable (OutputError) -> Void)? in
            defer { s.onFailure = nil }
            return s.onFailure
        }
        handler?(error)
    }

    static func write(_ text: String) {
        write(Array(text.utf8))
    }

    /// A line on stderr; nothing more can be done when that fails.
    static func writeError(_ text: String) {
        try? OutputError.writeAll(Array(text.utf8), to: 2, target: "stderr")
    }
}
