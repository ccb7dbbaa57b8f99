import MTTCore
import Synchronization

/// Everything mtt prints on stdout goes through here, so that an output that cannot be written
/// (a full disk, a closed pipe, a closed descriptor) is noticed once and ends the command cleanly
/// instead of crashing it; stderr lines are best effort.
enum StandardOutput {
    private struct State {
        var failure: OutputError?
        var onFailure: (@Sendable (OutputError) -> Void)?
        var closedPipeIsAStop = false
    }

    private static let state = Mutex(State())

    /// The first failed write, if any.
    static var failure: OutputError? { state.withLock { $0.failure } }

    /// Whether the command ended because its reader went away and treats that as a stop request
    /// (collect), not as a failure.
    static var endedByClosedPipe: Bool { state.withLock { $0.closedPipeIsAStop && $0.failure?.isClosedPipe == true } }

    /// Called once, on the first failed write (collect stops its run there).
    static func onFailure(closedPipeIsAStop: Bool, _ handler: @escaping @Sendable (OutputError) -> Void) {
        state.withLock {
            $0.onFailure = handler
            $0.closedPipeIsAStop = closedPipeIsAStop
        }
    }

    /// Writes the bytes unless an earlier write failed; returns whether they were written.
    @discardableResult
    static func write(_ bytes: [UInt8]) -> Bool {
        guard failure == nil else { return false }
        do {
            try OutputError.writeAll(bytes, to: 1, target: "stdout")
            return true
        } catch {
            let handler = state.withLock { s -> (@Sendable (OutputError) -> Void)? in
                guard s.failure == nil else { return nil }
                s.failure = error
                return s.onFailure
            }
            handler?(error)
            return false
        }
    }

    static func write(_ text: String) {
        write(Array(text.utf8))
    }

    /// A line on stderr; nothing more can be done when that fails.
    static func writeError(_ text: String) {
        try? OutputError.writeAll(Array(text.utf8), to: 2, target: "stderr")
    }
}
