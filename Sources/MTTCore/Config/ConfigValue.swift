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

/// A server's address as people write it: an http:// or https:// URL with a host (sync and fetch
/// servers, webhooks); nil for anything else.
public enum HTTPURLText {
    public static func url(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              url.host?.isEmpty == false else { return nil }
        return url
    }
}
