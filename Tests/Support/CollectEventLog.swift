import MTTCore
import Synchronization

/// The events a collector emitted, kept for a test to read, with the send policy the road tests
/// drive by (a send every 2 clock seconds after 5 m).
public final class CollectEventLog: Sendable {
    private let events = Mutex<[CollectEvent]>([])

    public init() {}

    /// For the collector's `emit`.
    public var emit: @Sendable (CollectEvent) -> Void {
        { [self] event in events.withLock { $0.append(event) } }
    }

    public var all: [CollectEvent] { events.withLock { $0 } }

    public var losses: Int { all.filter { if case .nodeLost = $0 { true } else { false } }.count }
    public var returns: Int { all.filter { if case .nodeBack = $0 { true } else { false } }.count }

    public static var brisk: SendPolicy {
        var policy = SendPolicy()
        policy.minimumInterval = 2
        policy.minimumDistance = 5
        return policy
    }
}
