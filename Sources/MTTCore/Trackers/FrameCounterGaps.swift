import FoundationEssentials

/// Uplinks a device sent and nobody heard, from the gaps in its frame counters: between two heard
/// uplinks with counters 17 and 20, frames 18 and 19 were sent and lost. Each becomes an
/// `EstimatedAttempt`, sent at a time shared out evenly between the two, and placed on the line
/// between the device's two positions when they are close enough in time and space to say it was
/// there. A counter that goes back (the device restarted) or jumps too far (a long outage, a
/// re-join) is no gap.
public struct FrameCounterGaps: Sendable {
    public struct Rules: Sendable, Hashable {
        /// Seconds: heard uplinks further apart leave the frames between them unplaced.
        public var maximumTime = 300.0
        /// Metres: heard positions further apart leave the frames between them unplaced.
        public var maximumDistance = 2_000.0
        /// A counter that jumps further than this is a restart or a re-join, not a gap.
        public var largestJump: UInt32 = 1_000

        public init() {}
    }

    public var rules: Rules
    /// Each device's last heard uplink: a fleet of 1,000 devices keeps 1,000.
    private var last: [String: Heard] = [:]

    private struct Heard {
        var fCnt: UInt32
        var time: Timestamp
        var position: GeoPoint?
        var uplinkID: Int64
        var spreadingFactor: Int?
    }

    public init(rules: Rules = Rules()) {
        self.rules = rules
    }

    /// The frames lost since the device's last heard uplink, once `uplink` (stored as `id`, placed
    /// at `position` or not) is heard.
    public mutating func heard(_ uplink: Uplink, id: Int64, session: Int64, position: GeoPoint?) -> [EstimatedAttempt] {
        guard let fCnt = uplink.fCnt else { return [] }
        let key = uplink.devEUI ?? uplink.deviceID
        let now = Heard(fCnt: fCnt, time: uplink.earliestReceiveTime, position: position, uplinkID: id, spreadingFactor: uplink.spreadingFactor)
        guard let before = last[key] else {
            last[key] = now
            return []
        }
        // The same frame again (a second delivery) changes nothing.
        guard fCnt != before.fCnt else { return [] }
        last[key] = now
        guard fCnt > before.fCnt, fCnt - before.fCnt <= rules.largestJump, now.time > before.time else { return [] }
        let missing = Int(fCnt - before.fCnt - 1)
        guard missing > 0 else { return [] }
        let seconds = now.time.seconds(since: before.time)
        let (placeable, reason) = placeable(before, now, seconds: seconds)
        return (1...missing).map { k in
            let fraction = Double(k) / Double(missing + 1)
            return EstimatedAttempt(
                sessionID: session, deviceID: uplink.deviceID, devEUI: uplink.devEUI, fCnt: before.fCnt + UInt32(k),
                sentAt: before.time.adding(seconds: seconds * fraction),
                position: placeable.map { $0.from.interpolated(to: $0.to, fraction: fraction) }, reason: reason,
                spreadingFactor: before.spreadingFactor, heardBefore: before.uplinkID, heardAfter: id)
        }
    }

    private func placeable(_ before: Heard, _ after: Heard, seconds: Double) -> ((from: GeoPoint, to: GeoPoint)?, String?) {
        guard let from = before.position, let to = after.position else {
            return (nil, "the device's position is not known at both heard uplinks around it")
        }
        guard seconds <= rules.maximumTime else {
            return (nil, "the heard uplinks around it are \(Int(seconds.rounded())) s apart (more than \(rules.maximumTime.plainText) s)")
        }
        let metres = from.distance(to: to)
        guard metres <= rules.maximumDistance else {
            return (nil, "the heard uplinks around it are \(Int(metres.rounded())) m apart (more than \(rules.maximumDistance.plainText) m)")
        }
        return ((from, to), nil)
    }
}
