/// An uplink a tracker sent that no gateway heard, known only from the gap in its frame counters
/// between two uplinks that were heard (DESIGN's trackers). Kept apart from measured attempts,
/// counted apart in the coverage, never uploaded as a measurement.
public struct EstimatedAttempt: Sendable, Hashable {
    public var id: Int64?
    public var sessionID: Int64
    public var deviceID: String
    public var devEUI: String?
    public var fCnt: UInt32
    /// Estimated: the heard uplinks' times, shared out evenly over the frames between them (the
    /// device's own interval).
    public var sentAt: Timestamp
    /// Interpolated between the device's positions at the heard uplinks; nil with `reason` when
    /// they are too far apart in time or space, or not both placed.
    public var position: GeoPoint?
    public var reason: String?
    /// The heard uplink's before the gap: a device keeps its data rate until told otherwise.
    public var spreadingFactor: Int?
    /// The heard uplinks around the gap.
    public var heardBefore: Int64
    public var heardAfter: Int64

    public init(
        id: Int64? = nil, sessionID: Int64, deviceID: String, devEUI: String?, fCnt: UInt32, sentAt: Timestamp, position: GeoPoint?,
        reason: String?, spreadingFactor: Int?, heardBefore: Int64, heardAfter: Int64
    ) {
        self.id = id
        self.sessionID = sessionID
        self.deviceID = deviceID
        self.devEUI = devEUI
        self.fCnt = fCnt
        self.sentAt = sentAt
        self.position = position
        self.reason = reason
        self.spreadingFactor = spreadingFactor
        self.heardBefore = heardBefore
        self.heardAfter = heardAfter
    }
}
