/// What a collection run has done so far: the numbers and states a status block, a web page or a
/// service's health check shows. Counted from the run's events, in one place.
public struct CollectionStats: Sendable {
    /// The GPS in words: waiting, connected, no fix, lost, not available.
    public var gps = "waiting for the GPS"
    /// The GPS ever connected in this run ("lost" is then the word, else "not available").
    public var gpsSeen = false
    public var lastFix: Fix?
    public var attempts = 0
    public var confirmed = 0
    public var failed = 0
    /// Attempts the network heard.
    public var heard = 0
    /// Attempts sent with a link check (`--linkcheck`), and how many of those were answered.
    public var linkChecks = 0
    public var linkChecksAnswered = 0
    /// Uplinks stored, heard attempts or not.
    public var uplinks = 0
    public var lastAttempt: (time: Timestamp, node: String)?
    public var lastSuccess: (time: Timestamp, uplink: Uplink)?
    /// The network source in words: none, connected, lost, not reachable.
    public var network = "no network source"
    public var networkSeen = false
    /// Nodes whose link is down now, with the reason.
    public var lostNodes: [String: String] = [:]
    /// Times each node came back after a loss.
    public var reconnects: [String: Int] = [:]
    /// The latest uplinks not joined to an attempt yet: the network can hear a send before the
    /// node reports its result, and the join that comes then names only the uplink's id. A ring of
    /// the last 256, the newest overwriting the oldest (a dictionary that dropped its smallest key
    /// searched all 256 keys for every uplink of a listener burst).
    private var unjoined = UnjoinedUplinks()

    public init() {}

    /// Share of resolved attempts the network did not hear; nil before any is resolved.
    public var lossPercent: Double? {
        StoreStatus.lossPercent(confirmed: confirmed, failed: failed, heard: heard)
    }

    public mutating func count(_ event: CollectEvent) {
        switch event {
        case .gps(.fix(let fix)): lastFix = fix
        case .gps(.noFix): gps = "no fix"
        case .gps(.connected(let spec)):
            gps = "connected to \(spec)"
            gpsSeen = true
        case .gps(.lost(let reason)):
            gps = (gpsSeen ? "lost: " : "not available: ") + reason
            lastFix = nil
        // Whether the last fix is stale follows from its age (`SendPolicy.staleness`); the event
        // only says when it starts.
        case .trackPoint, .sample, .stale, .battery, .storeBusy, .storeBack, .fieldTestAnswered, .fieldTestNotAnswered: break
        case .nodeLost(let node, let reason): lostNodes[node] = reason
        case .nodeBack(let node, _):
            lostNodes[node] = nil
            reconnects[node, default: 0] += 1
        case .attempt(let node, _, let fix):
            attempts += 1
            lastAttempt = (fix.time, node)
        case .confirmed(_, _, _, let linkCheck):
            confirmed += 1
            if let linkCheck {
                linkChecks += 1
                if linkCheck.gateways != nil { linkChecksAnswered += 1 }
            }
        case .failed: failed += 1
        // An attempt is heard when it is joined to its uplink, whichever came first (counted on
        // `.heard` alone, a simulated network that hears before the result showed "heard 0, loss
        // 100 %" live while the database said 0 %).
        case .heard(let uplinkID, let uplink, let attemptID):
            uplinks += 1
            if attemptID != nil {
                lastSuccess = (uplink.receivedAt, uplink)
            } else {
                unjoined.add(uplink, id: uplinkID)
            }
        case .joined(_, let uplinkID):
            heard += 1
            if let uplink = unjoined.take(uplinkID) { lastSuccess = (uplink.receivedAt, uplink) }
        case .network(let connected, let detail):
            network = connected ? "connected: \(detail)" : (networkSeen ? "lost: " : "not reachable: ") + detail
            if connected { networkSeen = true }
        }
    }
}
