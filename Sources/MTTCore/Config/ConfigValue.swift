import FoundationEssentials

/// A setting's value, whichever layer gave it (file, environment, flag, default).
public enum ConfigValue: Sendable, Hashable, CustomStringConvertible {
    case text(String)
    case number(Double)
    case flag(Bool)
    case list([String])

    public var description: String {
        switch self {
        case .text(let s): JSONString.quoted(s)
        case .number(let n): n.plainText
        case .flag(let b): b ? "true" : "false"
        case .list(let l): "[" + l.map(JSONString.quoted).joined(separator: ", ") + "]"
        }
    }
}

/// Lengths of time as people write them: `500ms`, `90s`, `10m`, `2h`, `2d`, or plain seconds.
public enum DurationText {
    public static func seconds(_ text: String) -> Double? {
        let units: [(suffix: String, factor: Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600), ("d", 86_400)]
        for unit in units where text.hasSuffix(unit.suffix) {
            if let value = Double(text.dropLast(unit.suffix.count)), value.isFinite { return value * unit.factor }
        }
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }
}

/// A start of a window as people write it: an RFC 3339 time, or a length of time ago (`6h`, `2d`).
public enum SinceText {
    public static func time(_ text: String, now: Timestamp) -> Timestamp? {
        if let time = RFC3339.parse(text) { return time }
        guard let ago = DurationText.seconds(text), ago >= 0 else { return nil }
        return now.adding(seconds: -ago)
    }
}

/// A server's address as people write it: an http:// or https:// URL with a host (sync and fetch
/// servers, webhooks); nil for anything else.
public enum HTTPURLText {
    public static func url(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              url.host?.isEmpty == false else { return nil }
        return url
    }
}
