/// What a collection run reports as it goes, for the live status, log lines and `--json`.
public enum CollectEvent: Sendable {
    case gps(FixEvent)
    /// A fix stored in the track.
    case trackPoint(Fix)
    /// An attempt stored as pending, just before the node is asked to send.
    case attempt(node: String, id: Int64, fix: Fix)
    /// The node sent it; with the link check's answer when one was asked for (`--linkcheck`).
    case confirmed(node: String, id: Int64, frameCounter: UInt32?, linkCheck: LinkCheck?)
    case failed(node: String, id: Int64, reason: String)
    /// An uplink the network heard, stored; `attemptID` when it is one of this run's attempts.
    case heard(uplinkID: Int64, uplink: Uplink, attemptID: Int64?)
    case sample(Sample)
    /// An attempt and the uplink the network heard of it, linked (whichever came first).
    case joined(attempt: Int64, uplink: Int64)
    case network(connected: Bool, detail: String)
    /// Active mode holds back because the fix is too old to send (a replayed capture, a GPS that
    /// stopped updating); said once each time it starts.
    case stale(node: String, reason: String)
    /// A node whose link dropped (out of range, unplugged); mtt reconnects it when it can.
    case nodeLost(node: String, reason: String)
    /// A lost node reached again after `outage` seconds; it is driven as before.
    case nodeBack(node: String, outage: Double)
    /// A node's battery level in percent, when the node reports one (read at connect and each minute).
    case battery(node: String, percent: Int)
    /// Another program holds the database's write lock: the run keeps what it has and tries again
    /// (uplinks wait in the broker meanwhile); said once each time it starts.
    case storeBusy(reason: String)
    /// The database took the run's records again after `outage` seconds.
    case storeBack(outage: Double)
    /// A field tester's test answered with its reply (queued at the network server).
    case fieldTestAnswered(uplinkID: Int64, uplink: Uplink, reply: FieldTesterReply)
    /// A field tester's reply not sent: the day's cap reached (said once a day), or the server
    /// did not take it (said once a run: the device is not known then).
    case fieldTestNotAnswered(device: String?, reason: String)
}
