import FoundationEssentials
import Glibc

/// A point in time with nanosecond resolution, as The Things Stack and TTN Mapper carry it.
///
/// `Date` is a Double of seconds and loses the nanoseconds that gateway receive times have;
/// storing integers also keeps ordering exact in SQL.
public struct Timestamp: Sendable, Hashable, Comparable, Codable {
    public var nanosecondsSinceEpoch: Int64

    public init(nanosecondsSinceEpoch: Int64) {
        self.nanosecondsSinceEpoch = nanosecondsSinceEpoch
    }

    /// Seconds outside 1677…2262 (or NaN, from a broken receiver) are clamped rather than trapping.
    public init(secondsSinceEpoch: Double) {
        let nanoseconds = (secondsSinceEpoch * 1e9).rounded()
        if nanoseconds.isNaN {
            self.nanosecondsSinceEpoch = 0
        } else if nanoseconds >= 9.2e18 {
            self.nanosecondsSinceEpoch = .max
        } else if nanoseconds <= -9.2e18 {
            self.nanosecondsSinceEpoch = .min
        } else {
            self.nanosecondsSinceEpoch = Int64(nanoseconds)
        }
    }

    public init(_ date: Date) {
        self.init(secondsSinceEpoch: date.timeIntervalSince1970)
    }

    public static func now() -> Timestamp {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Timestamp(nanosecondsSinceEpoch: Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec))
    }

    public var secondsSinceEpoch: Double { Double(nanosecondsSinceEpoch) / 1e9 }
    public var date: Date { Date(timeIntervalSince1970: secondsSinceEpoch) }

    /// Seconds from `other` to `self` (positive when `self` is later).
    public func seconds(since other: Timestamp) -> Double {
        Double(nanosecondsSinceEpoch - other.nanosecondsSinceEpoch) / 1e9
    }

    public func adding(seconds: Double) -> Timestamp {
        Timestamp(nanosecondsSinceEpoch: nanosecondsSinceEpoch + Int64((seconds * 1e9).rounded()))
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.nanosecondsSinceEpoch < rhs.nanosecondsSinceEpoch
    }
}
