/// An uplink or attempt with the position mtt assigned to it: what ends up on a coverage map.
public struct Sample: Sendable, Hashable, Codable {
    public enum Subject: Sendable, Hashable, Codable {
        case uplink(Int64)
        case attempt(Int64)
    }

    /// How the position was found. The raw values are stored and exported.
    public enum PositionMethod: String, Sendable, Hashable, Codable, CaseIterable {
        /// The fix the node's payload was built from at send time (active mode).
        case txTime = "tx-time"
        /// Linear interpolation between the two track fixes around the receive time.
        case interpolated
        /// The latest fix, used only while it was fresh.
        case latestFix = "latest-fix"
        /// The device's own fix, from its uplink's payload (trackers, `--gps payload`).
        case payload
        /// No position could be given; `reason` says why.
        case none
    }

    public var id: Int64?
    public var sessionID: Int64
    public var subject: Subject
    public var time: Timestamp
    public var position: GeoPoint?
    public var method: PositionMethod
    public var reason: String?

    public init(
        id: Int64? = nil, sessionID: Int64, subject: Subject, time: Timestamp, position: GeoPoint?,
        method: PositionMethod, reason: String? = nil
    ) {
        self.id = id
        self.sessionID = sessionID
        self.subject = subject
        self.time = time
        self.position = position
        self.method = method
        self.reason = reason
    }
}
