import FoundationEssentials

/// One hook as the configuration declares it (`[[hooks]]`, or `--on TYPE=COMMAND`): which events,
/// where to, and how often at most.
public struct HookRule: Sendable, Hashable {
    public enum Target: Sendable, Hashable, CustomStringConvertible {
        /// A program and its arguments, run without a shell.
        case command([String])
        /// An HTTP POST of the event; `text` sends its one-line summary instead of the JSON (for a
        /// phone notification service such as ntfy).
        case webhook(url: String, text: Bool)

        public var description: String {
            switch self {
            case .command(let argv): argv.first ?? "command"
            case .webhook(let url, _): WebhookURL.withoutSecrets(url)
            }
        }
    }

    /// How the hook is named in messages: `hooks[2]` or `--on coverage_lost`.
    public var name: String
    /// The event types it wants; never empty.
    public var types: Set<FieldEventType>
    public var target: Target
    /// Seconds after an event before the same type with the same key (its gateway, else its node)
    /// passes again; 0 for none.
    public var cooldown: Double = 0
    /// Gateway ids (or EUIs) whose events never pass: a `new_gateway` of theirs, an uplink only
    /// they heard.
    public var mute: Set<String> = []
    /// At most this many events pass in `ratePeriod` seconds; nil for no limit.
    public var rateLimit: Int?
    public var ratePeriod: Double = 3_600
    /// Seconds before a command is killed or a request given up.
    public var timeout: Double = 10
    /// Events waiting for a slow hook; past it the oldest are dropped (and counted).
    public var queue = 32

    public init(name: String, types: Set<FieldEventType>, target: Target) {
        self.name = name
        self.types = types
        self.target = target
    }
}

/// A webhook's URL as it may be printed: a password in it is not (`https://user:***@host/...`).
public enum WebhookURL {
    public static func withoutSecrets(_ url: String) -> String {
        guard var parts = URLComponents(string: url), parts.password != nil else { return url }
        parts.password = "***"
        return parts.string ?? url
    }
}
