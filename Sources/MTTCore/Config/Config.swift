/// mtt's settings, layered: the configuration file, then the environment, then the command line;
/// each value knows where it came from (`mtt config show`).
public struct Config: Sendable {
    public enum Source: Sendable, Hashable, CustomStringConvertible {
        case file(path: String, line: Int)
        case environment(String)
        case flag
        case builtIn

        public var description: String {
            switch self {
            case .file(let path, let line): "\(path):\(line)"
            case .environment(let name): "environment \(name)"
            case .flag: "command line"
            case .builtIn: "default"
            }
        }
    }

    /// A configuration file as read: each value with the line it is on.
    public struct Document: Sendable {
        public var path: String
        public var values: [String: (value: ConfigValue, line: Int)]
        /// The `[[hooks]]` tables in order, each with the line of its header.
        public var hooks: [(header: Int, values: [String: (value: ConfigValue, line: Int)])]

        public init(path: String, values: [String: (value: ConfigValue, line: Int)], hooks: [(header: Int, values: [String: (value: ConfigValue, line: Int)])] = []) {
            self.path = path
            self.values = values
            self.hooks = hooks
        }
    }

    public struct Entry: Sendable {
        public var value: ConfigValue
        public var source: Source
    }

    public private(set) var entries: [String: Entry] = [:]
    /// The hooks: the file's `[[hooks]]`, then `--on`.
    public private(set) var hooks: [HookRule] = []

    /// Layers `file`, then `environment` (the `MTT_…` variables of the keys), then `flags`; every
    /// key and value is checked, the first problem thrown with where it was written.
    public static func resolve(
        file: Document?, environment: [String: String], flags: [ConfigKey: ConfigValue], hooks: [String] = []
    ) throws(ConfigError) -> Config {
        var config = Config()
        for key in ConfigKey.all {
            if let value = key.defaultValue { config.entries[key.name] = Entry(value: value, source: .builtIn) }
        }
        if let file {
            for (name, found) in file.values.sorted(by: { $0.value.line < $1.value.line }) {
                let place = Source.file(path: file.path, line: found.line)
                guard let key = ConfigKey.named(name) else {
                    let known = ConfigKey.all.map(\.name).filter { $0.hasPrefix(name.split(separator: ".").first.map(String.init) ?? "") }
                    throw ConfigError(place: place, key: name, message: "unknown setting" + (known.isEmpty ? "" : " (this section has: \(known.joined(separator: ", ")))"))
                }
                var value = try checked(found.value, for: key, at: place)
                // A secret's file named in the configuration file is found beside that file, not
                // in whatever folder the command was started from.
                if key.kind == .secretFile, case .text(let secret) = value, !secret.hasPrefix("/") {
                    let folder = PathText.folder(of: file.path)
                    value = .text((folder.isEmpty ? "" : folder + "/") + secret)
                }
                config.entries[name] = Entry(value: value, source: place)
            }
        }
        for key in ConfigKey.all {
            guard let text = environment[key.environment], !text.isEmpty else { continue }
            let place = Source.environment(key.environment)
            let value: ConfigValue = key.kind == .list ? .list(text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }) : .text(text)
            config.entries[key.name] = Entry(value: try checked(value, for: key, at: place), source: place)
        }
        for (key, value) in flags {
            config.entries[key.name] = Entry(value: try checked(value, for: key, at: .flag), source: .flag)
        }
        for (index, table) in (file?.hooks ?? []).enumerated() {
            config.hooks.append(try HookSettings.rule(table.values, index: index + 1, header: table.header, path: file?.path ?? ""))
        }
        for text in hooks { config.hooks.append(try HookSettings.rule(commandLine: text)) }
        return config
    }

    /// `value` as `key` wants it (a duration's text read as seconds), or the reason it is not.
    static func checked(_ value: ConfigValue, for key: ConfigKey, at place: Source) throws(ConfigError) -> ConfigValue {
        func fail(_ message: String) -> ConfigError { ConfigError(place: place, key: key.name, message: message) }
        switch (key.kind, value) {
        case (.text, .text(let s)), (.secretFile, .text(let s)):
            if let choices = key.choices, !choices.contains(s) { throw fail("must be \(choices.joined(separator: " or ")), not \(s)") }
            return value
        case (.number, .number(let n)):
            if let range = key.range {
                guard n == n.rounded(), n >= Double(range.lowerBound), n <= Double(range.upperBound) else {
                    throw fail("must be a whole number from \(range.lowerBound) to \(range.upperBound), not \(n.plainText)")
                }
            }
            guard n >= 0 else { throw fail("must be 0 or more, not \(n.plainText)") }
            return value
        case (.number, .text(let s)):
            guard let n = Double(s), n.isFinite else { throw fail("must be a number, not \(s)") }
            return try checked(.number(n), for: key, at: place)
        case (.duration, .number(let n)):
            guard n > 0 || (n == 0 && key.allowsZero) else {
                throw fail("must be a length of time \(key.allowsZero ? "of 0 or more" : "above 0"), not \(n.plainText)")
            }
            guard n <= DurationText.longest else { throw fail("must be a length of time up to 100 years") }
            return value
        case (.duration, .text(let s)):
            let seconds: Double
            do throws(TimeTextError) {
                seconds = try DurationText.parse(s)
            } catch {
                throw fail(error.isTooLong ? "must be a length of time up to 100 years, not \(s)" : "must be a length of time such as 12s, 10m or 2h, not \(s)")
            }
            return try checked(.number(seconds), for: key, at: place)
        case (.list, .list), (.flag, .flag):
            return value
        case (.flag, .text(let s)):
            // The environment's words for it.
            switch s.lowercased() {
            case "true", "yes", "1": return .flag(true)
            case "false", "no", "0": return .flag(false)
            default: throw fail("must be true or false, not \(s)")
            }
        case (.list, .text(let s)):
            return .list([s])
        default:
            let wanted = switch key.kind {
            case .text, .secretFile: "text in quotes"
            case .number: "a number"
            case .duration: "a length of time such as \"12s\""
            case .list: "a list such as [\"fake\"]"
            case .flag: "true or false"
            }
            throw fail("must be \(wanted), not \(value)")
        }
    }

    public func value(_ key: ConfigKey) -> ConfigValue? { entries[key.name]?.value }

    public func text(_ key: ConfigKey) -> String? {
        if case .text(let s)? = value(key) { return s }
        return nil
    }

    /// Numbers and durations (in seconds).
    public func number(_ key: ConfigKey) -> Double? {
        if case .number(let n)? = value(key) { return n }
        return nil
    }

    /// A number or duration that has a declared default, so always has a value.
    public func amount(_ key: ConfigKey) -> Double {
        number(key) ?? key.defaultValue?.seconds ?? 0
    }

    /// A flag, else its declared default, else false.
    public func flag(_ key: ConfigKey) -> Bool {
        if case .flag(let b)? = value(key) ?? key.defaultValue { return b }
        return false
    }

    public func list(_ key: ConfigKey) -> [String] {
        if case .list(let l)? = value(key) { return l }
        return []
    }

    public func source(_ key: ConfigKey) -> Source? { entries[key.name]?.source }

    /// The `[alerts]` settings as the run takes them.
    public var alertRules: AlertRules {
        var rules = AlertRules()
        rules.coverageLostAfter = Int(amount(.coverageLostAfter))
        rules.coverageSilence = amount(.coverageSilence)
        rules.heardWithin = amount(.heardWithin)
        rules.batteryLow = Int(amount(.batteryLow))
        rules.mapURL = text(.mapURL)
        return rules
    }

    /// How positions are read from the uplinks' payloads (`[trackers]`); throws where a codec or a
    /// gate is named that does not exist.
    public func payloadPositioning() throws(ConfigError) -> PayloadPositioning {
        var positioning = PayloadPositioning()
        do {
            positioning.codecs = try CodecChoices(parsing: list(.trackerCodecs))
        } catch {
            throw problem(.trackerCodecs, error.description)
        }
        positioning.gates.minimumSatellites = Int(amount(.trackerMinimumSatellites))
        positioning.gates.maximumAccuracy = amount(.trackerMaximumAccuracy)
        positioning.gates.maximumHDOP = amount(.trackerMaximumHDOP)
        positioning.gates.nullIslandDegrees = amount(.trackerNullIsland)
        for name in list(.trackerGatesOff) {
            guard let gate = PositionGates.Gate(rawValue: name) else {
                throw problem(.trackerGatesOff, "no gate \(name); the gates are \(ListText.or(PositionGates.Gate.allCases.map(\.rawValue)))")
            }
            positioning.gates.disabled.insert(gate)
        }
        return positioning
    }

    /// How a tracker's frames nobody heard are estimated (`[trackers]`).
    public var frameCounterGapRules: FrameCounterGaps.Rules {
        var rules = FrameCounterGaps.Rules()
        rules.maximumTime = amount(.trackerGapTime)
        rules.maximumDistance = amount(.trackerGapDistance)
        return rules
    }

    /// Where a device's own sessions begin and end (`[trackers] session_gap`).
    public var deviceSessions: DeviceSessionSplitter {
        DeviceSessionSplitter(silence: amount(.trackerSessionGap))
    }

    /// The error for `key`'s value when the command cannot use it, named where it was set.
    public func problem(_ key: ConfigKey, _ message: String) -> ConfigError {
        ConfigError(place: source(key) ?? .builtIn, key: key.name, message: message)
    }

    /// Every setting with a value, as `mtt config show` prints it: secrets' files are named, never
    /// read; nothing secret is in the configuration to mask but what a file's name could betray.
    public var shown: [(key: ConfigKey, value: String, source: Source)] {
        ConfigKey.all.compactMap { key in
            guard let entry = entries[key.name] else {
                // The database has no fixed default (it follows XDG_DATA_HOME): shown as it resolves.
                if key == .database { return (key, ConfigValue.text(StoreLocation.resolve(explicit: nil)).description, .builtIn) }
                return nil
            }
            var text = key.kind == .duration ? (entry.value.seconds.map { $0.plainText + "s" } ?? entry.value.description) : entry.value.description
            if key.kind == .secretFile { text += " (the secret stays in the file)" }
            return (key, text, entry.source)
        }
    }
}

extension ConfigValue {
    var seconds: Double? {
        if case .number(let n) = self { return n }
        return nil
    }
}

/// A setting that cannot be used: where it was written, which, and why.
public struct ConfigError: Error, Sendable, CustomStringConvertible {
    public var place: Config.Source
    public var key: String
    public var message: String

    public init(place: Config.Source, key: String, message: String) {
        self.place = place
        self.key = key
        self.message = message
    }

    public var description: String { key.isEmpty ? "\(place): \(message)" : "\(place): \(key): \(message)" }
}
