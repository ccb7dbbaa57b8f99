import Synchronization

/// What a TTN connection has seen, readable while it runs.
public final class UplinkCounters: Sendable {
    public struct Snapshot: Sendable, Hashable {
        public var messages = 0
        public var uplinks = 0
        /// Bad JSON, wrong types, binary: counted and skipped.
        public var malformed = 0
        /// Console-simulated uplinks: not coverage, dropped.
        public var simulated = 0
        /// Valid messages that are not uplinks.
        public var ignored = 0
        /// Values outside physical limits and receptions past the limits, left out of the uplinks
        /// that carried them (`UplinkLimits`, `Uplink.screened`).
        public var leftOut = 0
    }

    private let counts = Mutex(Snapshot())

    public init() {}

    public var snapshot: Snapshot { counts.withLock { $0 } }

    func update(_ change: (inout Snapshot) -> Void) {
        counts.withLock { change(&$0) }
    }
}
