/// Why a length of time or a point in time was not taken, in one line.
public struct TimeTextError: Error, Equatable, CustomStringConvertible {
    public var description: String
    /// A length of time, but longer than `DurationText.longest`.
    public var isTooLong = false
}

/// Lengths of time as people write them: `500ms`, `90s`, `10m`, `2h`, `2d`, or plain seconds.
public enum DurationText {
    /// 100 years: beyond any window, timeout or interval anyone means, and well inside what a
    /// `Timestamp` holds (±292 years around 1970), so no sum of a time and a length can overflow.
    public static let longest: Double = 36_525 * 86_400

    /// Nil for text that is not a length of time or is longer than `longest` either way.
    public static func seconds(_ text: String) -> Double? {
        try? parse(text)
    }

    public static func parse(_ text: String) throws(TimeTextError) -> Double {
        let units: [(suffix: String, factor: Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600), ("d", 86_400)]
        var seconds: Double?
        for unit in units where text.hasSuffix(unit.suffix) {
            if let value = Double(text.dropLast(unit.suffix.count)), value.isFinite {
                seconds = value * unit.factor
                break
            }
        }
        if seconds == nil, let value = Double(text), value.isFinite { seconds = value }
        guard let seconds, text.first?.isWhitespace == false else {
            throw TimeTextError(description: "\(text) is not a length of time such as 90s, 10m, 2h or 2d")
        }
        guard abs(seconds) <= longest else { throw TimeTextError(description: "\(text) is longer than 100 years", isTooLong: true) }
        return seconds
    }
}

/// A start or end of a window as people write it: an RFC 3339 time, or a length of time ago (`6h`, `2d`).
public enum SinceText {
    public static func time(_ text: String, now: Timestamp) -> Timestamp? {
        try? parse(text, now: now)
    }

    public static func parse(_ text: String, now: Timestamp) throws(TimeTextError) -> Timestamp {
        if let time = RFC3339.parse(text) { return time }
        if RFC3339.isOutOfRange(text) {
            throw TimeTextError(description: "\(text) is outside the years mtt keeps (1678 to 2261)")
        }
        if text.contains("T") || text.contains(":") {
            throw TimeTextError(description: "\(text) is not an RFC 3339 time such as 2026-06-21T08:00:00Z")
        }
        let ago: Double
        do throws(TimeTextError) {
            ago = try DurationText.parse(text)
        } catch where !error.isTooLong {
            throw TimeTextError(description: "\(text) is neither an RFC 3339 time (2026-06-21T08:00:00Z) nor a length of time ago (6h, 2d)")
        }
        guard ago >= 0 else { throw TimeTextError(description: "\(text) is a negative length of time: a time ago is 0 or more") }
        return now.adding(seconds: -ago)
    }
}

extension ExportFilter {
    /// Sets the window from `since` and `until` as people write them (`6h`, `2d`, an RFC 3339
    /// time): one grammar for every command's `--since`/`--until` and the map's `?since=&until=`.
    /// A window that ends before it starts is refused, not read as empty.
    /// - Parameter names: how the caller calls the two (`--since` on a command line).
    public mutating func setWindow(
        since: String?, until: String?, now: Timestamp, names: (since: String, until: String) = ("since", "until")
    ) throws(TimeTextError) {
        func read(_ name: String, _ text: String?) throws(TimeTextError) -> Timestamp? {
            guard let text else { return nil }
            do throws(TimeTextError) {
                return try SinceText.parse(text, now: now)
            } catch {
                throw TimeTextError(description: "\(name) \(error)")
            }
        }
        let start = try read(names.since, since)
        let end = try read(names.until, until)
        if let start, let end, end < start {
            throw TimeTextError(description: "\(names.until) is before \(names.since)")
        }
        if let start { self.since = start }
        if let end { self.until = end }
    }
}
