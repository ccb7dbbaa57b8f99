import MTTCore
import Synchronization

/// A node out of range, as the run meets it: while the gate is shut every try to reach the node
/// fails, and the tries are counted, so a test waits for the run to have tried rather than for a
/// time. Wraps the node's own connector.
public final class GatedConnector: NodeConnector {
    private let inner: any NodeConnector
    private let shut = Atomic<Bool>(false)
    private let refused = Atomic<Int>(0)

    public init(_ inner: any NodeConnector) {
        self.inner = inner
    }

    public var name: String { inner.name }
    public var longestRetryWait: Double { inner.longestRetryWait }

    /// Tries refused since the gate was last shut.
    public var refusals: Int { refused.load(ordering: .relaxed) }

    public func shutGate() {
        refused.store(0, ordering: .relaxed)
        shut.store(true, ordering: .relaxed)
    }

    public func openGate() {
        shut.store(false, ordering: .relaxed)
    }

    public func connect() async throws -> any NodeLink {
        if shut.load(ordering: .relaxed) {
            refused.add(1, ordering: .relaxed)
            throw NodeError.disconnected(node: name, reason: "the node does not answer (out of range)")
        }
        return try await inner.connect()
    }
}
