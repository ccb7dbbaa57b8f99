import Dispatch
import Foundation
import MTTCore

/// Calls a handler on Ctrl-C, SIGTERM or SIGHUP (the terminal closed) instead of dying, so a command can stop cleanly and keep
/// what it has; `cancel()` restores nothing (mtt exits soon after).
struct InterruptWatch {
    private let sources: [any DispatchSourceSignal]

    init(_ handler: @escaping @Sendable () -> Void) {
        sources = [SIGINT, SIGTERM, SIGHUP].map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number)
            source.setEventHandler(handler: handler)
            source.resume()
            return source
        }
    }

    func cancel() {
        sources.forEach { $0.cancel() }
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
