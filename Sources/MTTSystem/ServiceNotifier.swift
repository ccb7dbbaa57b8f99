import CSystemd
import Glibc
import MTTCore

/// Tells systemd how the service is doing (sd_notify through libsystemd: the protocol is not
/// written again here). Exists only when systemd started mtt with a notify socket.
public final class ServiceNotifier: Sendable {
    /// How often systemd wants WATCHDOG=1 (half its WatchdogSec), when it watches.
    public let watchdogInterval: Double?

    /// Nil when no service manager listens (NOTIFY_SOCKET unset): mtt run by hand.
    public init?() {
        guard let socket = getenv("NOTIFY_SOCKET"), socket.pointee != 0 else { return nil }
        var microseconds: UInt64 = 0
        watchdogInterval = sd_watchdog_enabled(0, &microseconds) > 0 ? Double(microseconds) / 2_000_000 : nil
    }

    /// The run has started: systemd considers the service up.
    public func ready() { send("READY=1") }

    /// The run's own loop is alive.
    public func watchdog() { send("WATCHDOG=1") }

    /// One line for `systemctl status`.
    public func status(_ line: String) {
        send("STATUS=" + line.replacingOccurrences(of: "\n", with: " "))
    }

    public func stopping() { send("STOPPING=1") }

    private func send(_ state: String) {
        _ = sd_notify(0, state)
    }
}
