import Foundation
import MTTCore
import MTTSystem

/// Calls a handler on Ctrl-C, SIGTERM or SIGHUP (the terminal closed) instead of dying, so a command
/// can stop cleanly and keep what it has; after `cancel()` a signal ends mtt as it would any program.
struct InterruptWatch {
    private let id: Int

    init(_ handler: @escaping @Sendable () -> Void) {
        id = StopSignals.watch { _ in handler() }
    }

    func cancel() {
        StopSignals.unwatch(id)
    }
}

extension InterruptWatch {
    /// For a command writing `out` (nil: stdout): a stop removes the unfinished file, which leaves
    /// the one it would replace as it was, and says so.
    static func leavingOutputAsItWas(_ out: String?) -> InterruptWatch {
        InterruptWatch {
            TextSink.discardUnfinished()
            Console.error("mtt: stopped" + (out.map { "; \($0) was left as it was" } ?? ""))
            Glibc.exit(1)
        }
    }
}
