/// Where a node of the newest collection run stands: reachable or lost, since when, and how often it
/// came back. Written by the run as it happens, so `mtt status` (another process) and a web page
/// see it while the run goes on, and after it, what the last run ended with.
public struct NodeState: Sendable, Hashable, Encodable {
    public enum Condition: String, Sendable, Hashable, Encodable {
        /// Linked and driven (or being joined).
        case connected
        /// The link dropped, the device vanished or it stopped answering; mtt is reconnecting.
        case lost
    }

    public var session: Int64
    public var node: String
    public var state: Condition
    /// Why it was lost; nil while connected.
    public var reason: String?
    public var since: Timestamp
    /// Times the node came back after a loss in this session.
    public var reconnects: Int
    /// Whether the session that drives the node has been closed (a run that was killed leaves it
    /// open until the next start).
    public var sessionEnded: Bool

    public init(session: Int64, node: String, state: Condition, reason: String? = nil, since: Timestamp, reconnects: Int = 0, sessionEnded: Bool = false) {
        self.session = session
        self.node = node
        self.state = state
        self.reason = reason
        self.since = since
        self.reconnects = reconnects
        self.sessionEnded = sessionEnded
    }

    enum CodingKeys: String, CodingKey {
        case session, node, state, reason, since, reconnects
        case sessionEnded = "session_ended"
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(session, forKey: .session)
        try c.encode(node, forKey: .node)
        try c.encode(state, forKey: .state)
        try c.encode(reason, forKey: .reason)
        try c.encode(RFC3339.string(since), forKey: .since)
        try c.encode(reconnects, forKey: .reconnects)
        try c.encode(sessionEnded, forKey: .sessionEnded)
    }
}
