import Foundation
import MTTCore
import Synchronization

/// A one-line progress report on a terminal's stderr, redrawn ten times a second at most.
final class ProgressBar: Sendable {
    private let lastDraw = Mutex<Double>(0)
    private let drawn = Mutex(false)
    private let started = Date()

    /// Draws `line` when it is time to (always when `final`).
    func draw(final: Bool = false, _ line: () -> String) {
        let now = Date().timeIntervalSinceReferenceDate
        let due = lastDraw.withLock { last in
            guard now - last >= 0.1 || final else { return false }
            last = now
            return true
        }
        guard due else { return }
        drawn.withLock { $0 = true }
        StandardOutput.writeError("\r" + line() + "\u{1B}[K")
    }

    /// Ends the bar's line so the summary starts on its own.
    func finish() {
        if drawn.withLock({ $0 }) { StandardOutput.writeError("\n") }
    }

    /// Seconds since the bar was made.
    var elapsed: Double { Date().timeIntervalSince(started) }

    /// An upload: count, rate and time to go.
    func update(_ p: SyncProgress) {
        draw(final: p.done == p.total) {
            let width = 24
            let filled = p.total > 0 ? min(width, width * p.done / p.total) : width
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            let eta = p.remainingSeconds.map { "ETA \(Self.duration($0))" } ?? ""
            return "\(p.target.rawValue) [\(bar)] \(p.done)/\(p.total)  \(Int(p.rate.rounded()))/s  \(eta)"
        }
    }

    /// A fetch: uplinks read so far and the rate (the total is not known before the end).
    func update(_ s: FetchSummary) {
        draw {
            let rate = elapsed > 0 ? Double(s.read) / elapsed : 0
            return "fetch: \(s.read) uplinks read (\(s.new) new)  \(Int(rate.rounded()))/s  session \(s.sessions)"
        }
    }

    private static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 60 ? "\(s / 60)m\(String(format: "%02d", s % 60))s" : "\(s)s"
    }
}
