/// Where mtt was at a given time, from a recorded track: linear interpolation between the two
/// fixes around the time. A time outside the track, or inside a gap longer than `maximumGap`, has
/// no position, and the answer says why.
public struct TrackInterpolator: Sendable {
    public enum Answer: Sendable, Hashable {
        case position(GeoPoint)
        case none(reason: String)
    }

    public var maximumGap: Double

    public init(maximumGap: Double = 30) {
        self.maximumGap = maximumGap
    }

    /// - Parameter track: fixes in time order.
    public func position(at time: Timestamp, in track: [Fix]) -> Answer {
        guard let first = track.first, let last = track.last else { return .none(reason: "no track recorded") }
        if time < first.time { return .none(reason: "before the track starts (\(Self.seconds(first.time.seconds(since: time))) s early)") }
        if time > last.time { return .none(reason: "after the track ends (\(Self.seconds(time.seconds(since: last.time))) s late)") }
        // The first fix at or after `time`, by binary search: tracks of a long drive are large.
        var low = 0
        var high = track.count - 1
        while low < high {
            let mid = (low + high) / 2
            if track[mid].time < time { low = mid + 1 } else { high = mid }
        }
        let after = track[low]
        if after.time == time { return .position(after.point) }
        let before = track[low - 1]
        let gap = after.time.seconds(since: before.time)
        guard gap <= maximumGap else {
            return .none(reason: "in a \(Self.seconds(gap)) s gap of the track (more than \(Self.seconds(maximumGap)) s)")
        }
        return .position(before.point.interpolated(to: after.point, fraction: time.seconds(since: before.time) / gap))
    }

    private static func seconds(_ value: Double) -> String {
        value.rounded() == value ? String(Int(value)) : String((value * 10).rounded() / 10)
    }
}
