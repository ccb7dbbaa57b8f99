import Foundation
import MTTCore
import Synchronization

/// A one-line progress bar on a terminal's stderr: count, rate and time to go, redrawn ten times a
/// second at most.
final class SyncProgressBar: Sendable {
    private let lastDraw = Mutex<Double>(0)
    private let drawn = Mutex(false)

    func update(_ p: SyncProgress) {
        let now = Date().timeIntervalSinceReferenceDate
        let due = lastDraw.withLock { last in
            guard now - last >= 0.1 || p.done == p.total else { return false }
            last = now
            return true
        }
        guard due else { return }
        drawn.withLock { $0 = true }
        let width = 24
        let filled = p.total > 0 ? min(width, width * p.done / p.total) : width
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let eta = p.remainingSeconds.map { "ETA \(Self.duration($0))" } ?? ""
        let line = "\(p.target.rawValue) [\(bar)] \(p.done)/\(p.total)  \(Int(p.rate.rounded()))/s  \(eta)"
        StandardOutput.writeError("\r" + line + "\u{1B}[K")
    }

    /// Ends the bar's line so the summary starts on its own.
    func finish() {
        if drawn.withLock({ $0 }) { StandardOutput.writeError("\n") }
    }

    private static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 60 ? "\(s / 60)m\(String(format: "%02d", s % 60))s" : "\(s)s"
    }
}
