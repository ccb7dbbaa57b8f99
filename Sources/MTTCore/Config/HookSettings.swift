/// Hooks as the configuration file declares them (`[[hooks]]` tables) and as `--on TYPE=COMMAND`
/// gives one; every problem named where it was written.
public enum HookSettings {
    /// The keys a `[[hooks]]` table takes.
    public static let keys = ["on", "command", "url", "text", "cooldown", "mute", "rate", "timeout", "queue"]

    /// The `index`th (from 1) `[[hooks]]` table of `path`.
    public static func rule(_ table: [String: (value: ConfigValue, line: Int)], index: Int, header: Int, path: String) throws(ConfigError) -> HookRule {
        let name = "hooks[\(index)]"
        func fail(_ key: String, _ message: String) -> ConfigError {
            ConfigError(place: .file(path: path, line: table[key]?.line ?? header), key: key.isEmpty ? name : "\(name).\(key)", message: message)
        }
        for key in table.keys where !keys.contains(key) {
            throw fail(key, "unknown setting (a hook has: \(keys.joined(separator: ", ")))")
        }
        let types: Set<FieldEventType>
        switch table["on"]?.value {
        case .list(let names)?: types = try eventTypes(names) { fail("on", $0) }
        case .text(let one)?: types = try eventTypes([one]) { fail("on", $0) }
        case nil: throw fail("", "needs on = [\"event type\", …]")
        default: throw fail("on", "must be a list of event types such as [\"coverage_lost\"]")
        }
        let target: HookRule.Target
        switch (table["command"]?.value, table["url"]?.value) {
        case (.list(let argv)?, nil) where !argv.isEmpty && !argv[0].isEmpty: target = .command(argv)
        case (.text(let line)?, nil):
            let argv = line.split(separator: " ").map(String.init)
            guard !argv.isEmpty else { throw fail("command", "is empty") }
            target = .command(argv)
        case (nil, .text(let url)?):
            guard HTTPURLText.url(url) != nil else { throw fail("url", "must be an http:// or https:// URL, not \(url)") }
            var text = false
            if let value = table["text"]?.value {
                guard case .flag(let flag) = value else { throw fail("text", "must be true or false") }
                text = flag
            }
            target = .webhook(url: url, text: text)
        case (nil, nil): throw fail("", "needs command = [\"program\", \"argument\", …] or url = \"https://…\"")
        case (.some, .some): throw fail("url", "a hook has a command or a url, not both")
        default: throw fail("command", "must be a list such as [\"paplay\", \"/usr/share/sounds/alert.oga\"]")
        }
        var rule = HookRule(name: name, types: types, target: target)
        func seconds(_ key: String) throws(ConfigError) -> Double? {
            guard let value = table[key]?.value else { return nil }
            switch value {
            case .number(let n) where n >= 0 && n <= DurationText.longest: return n
            case .text(let s):
                if let n = DurationText.seconds(s), n >= 0 { return n }
            default: break
            }
            throw fail(key, "must be a length of time such as \"5m\", not \(value)")
        }
        rule.cooldown = try seconds("cooldown") ?? 0
        if let timeout = try seconds("timeout") {
            guard timeout > 0 else { throw fail("timeout", "must be above 0") }
            rule.timeout = timeout
        }
        if let value = table["mute"]?.value {
            guard case .list(let ids) = value else { throw fail("mute", "must be a list of gateway ids such as [\"eui-b827ebfffe5b0001\"]") }
            rule.mute = Set(ids)
        }
        if let value = table["rate"]?.value {
            guard case .text(let text) = value, let limit = rate(text) else { throw fail("rate", "must be events per time such as \"10/h\" or \"3/10m\", not \(value)") }
            (rule.rateLimit, rule.ratePeriod) = limit
        }
        if let value = table["queue"]?.value {
            guard case .number(let n) = value, n >= 1, n <= 10_000, n == n.rounded() else { throw fail("queue", "must be a whole number from 1 to 10000") }
            rule.queue = Int(n)
        }
        return rule
    }

    /// `--on TYPE[,TYPE…]=PROGRAM ARGUMENT…` (split at spaces; no shell).
    public static func rule(commandLine text: String) throws(ConfigError) -> HookRule {
        func fail(_ message: String) -> ConfigError { ConfigError(place: .flag, key: "hooks.on", message: message) }
        guard let equals = text.firstIndex(of: "=") else { throw fail("takes TYPE=COMMAND, such as coverage_lost='paplay alert.oga', not \(text)") }
        let types = try eventTypes(text[..<equals].split(separator: ",").map(String.init), fail)
        let argv = text[text.index(after: equals)...].split(separator: " ").map(String.init)
        guard !argv.isEmpty else { throw fail("needs a command after =") }
        return HookRule(name: "--on \(text[..<equals])", types: types, target: .command(argv))
    }

    /// "10/h", "3/10m", "1/30s": at most N in that time.
    static func rate(_ text: String) -> (Int, Double)? {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let count = Int(parts[0]), count >= 1 else { return nil }
        let unit = parts[1].first?.isNumber == true ? String(parts[1]) : "1" + parts[1]
        guard let period = DurationText.seconds(unit), period > 0 else { return nil }
        return (count, period)
    }

    private static func eventTypes(_ names: [String], _ fail: (String) -> ConfigError) throws(ConfigError) -> Set<FieldEventType> {
        guard !names.isEmpty else { throw fail("names no event type") }
        var types: Set<FieldEventType> = []
        for name in names {
            guard let type = FieldEventType(named: name) else {
                throw fail("\(name) is not an event type (docs/events.md: \(FieldEventType.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            types.insert(type)
        }
        return types
    }
}
