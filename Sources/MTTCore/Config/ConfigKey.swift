/// One setting of mtt: its name in the file (`section.key`), its environment variable, its kind,
/// its default and what it does. Every default is declared here once; the command line's help,
/// the configuration file and the code all read it from here.
public struct ConfigKey: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case text, number, duration, list, flag
        /// A file that holds a secret: the secret itself is never in the configuration.
        case secretFile
    }

    public let name: String
    public let kind: Kind
    public let defaultValue: ConfigValue?
    public let help: String
    /// Accepted values, when only some are.
    public let choices: [String]?
    /// A duration of 0 means something (no wait); for the others it is a mistake.
    public let allowsZero: Bool

    init(_ name: String, _ kind: Kind, _ defaultValue: ConfigValue? = nil, choices: [String]? = nil, allowsZero: Bool = false, _ help: String) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.choices = choices
        self.allowsZero = allowsZero
        self.help = help
    }

    /// `MTT_DB` for the database, else `MTT_` and the name in capitals (`MTT_COLLECT_MODE`).
    public var environment: String {
        name == "db.path" ? "MTT_DB" : "MTT_" + name.uppercased().replacingOccurrences(of: ".", with: "_")
    }

    public static func == (a: ConfigKey, b: ConfigKey) -> Bool { a.name == b.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// The default as help shows it.
    public var defaultText: String {
        switch defaultValue {
        case .text(let s)?: s
        case .number(let n)?: kind == .duration ? n.plainText + "s" : n.plainText
        case .flag(let b)?: b ? "true" : "false"
        case .list(let l)?: l.joined(separator: ", ")
        case nil: "none"
        }
    }
}

extension ConfigKey {
    public static let database = ConfigKey("db.path", .text, nil, "The SQLite database file (default $XDG_DATA_HOME/mtt/mtt.sqlite).")

    public static let mode = ConfigKey("collect.mode", .text, nil, choices: ["active", "matching", "listener"], "active, matching or listener.")
    public static let nodes = ConfigKey("collect.nodes", .list, .list([]), "The nodes to drive: ble:MAC, ble:auto, serial:DEV?modem=rn2483, unix:PATH, fake[:N], fake-rn2483, fake-rui3.")
    public static let gps = ConfigKey("collect.gps", .text, .text("gpsd"), "Where positions come from: gpsd[://HOST:PORT], nmea:FILE, fixed:LAT,LON[,ALT], fake.")
    public static let network = ConfigKey("collect.network", .text, nil, choices: ["fake"], "fake simulates gateways hearing the fake nodes.")
    public static let mqttURL = ConfigKey("collect.mqtt_url", .text, nil, "The TTN MQTT server, mqtt://HOST:1883 or mqtts://HOST:8883.")
    public static let mqttUser = ConfigKey("collect.mqtt_user", .text, nil, "MQTT username, APP_ID@ttn.")
    public static let mqttPasswordFile = ConfigKey("collect.mqtt_password_file", .secretFile, nil, "File holding the API key (mode 600); or MTT_MQTT_PASSWORD.")
    public static let mqttCA = ConfigKey("collect.mqtt_ca", .text, nil, "A CA certificate for a server with a private CA.")
    public static let devices = ConfigKey("collect.devices", .list, .list([]), "TTN device IDs to hear (+ for all).")
    public static let interval = ConfigKey("collect.interval", .duration, nil, "Matching and listener modes: time between track points (default 5 s and 1 s).")
    public static let web = ConfigKey("collect.web", .text, nil, "Also serve the live map on this address, e.g. 127.0.0.1:8080.")
    public static let webTokenFile = ConfigKey("collect.web_token_file", .secretFile, nil, "With web off loopback: the token's file (mode 600).")
    public static let every = ConfigKey("collect.every", .duration, nil, "Active mode: also send every this long when standing still.")
    public static let maxFixAge = ConfigKey("collect.max_fix_age", .duration, .number(SendPolicy().maximumFixAge), "Active mode: do not send on a fix older than this.")
    public static let maxEPH = ConfigKey("collect.max_eph", .number, .number(SendPolicy().maximumEPH), "Active mode: do not send when the GPS error estimate is this many metres or more.")
    public static let minDistance = ConfigKey("collect.min_distance", .number, .number(SendPolicy().minimumDistance), "Active mode: metres to move between sends.")
    public static let minInterval = ConfigKey("collect.min_interval", .duration, .number(SendPolicy().minimumInterval), allowsZero: true, "Active mode: time between sends.")

    /// Every setting, in the order `mtt config show` lists them.
    public static let all: [ConfigKey] = [
        database, mode, nodes, gps, network, mqttURL, mqttUser, mqttPasswordFile, mqttCA, devices, interval, web, webTokenFile,
        every, maxFixAge, maxEPH, minDistance, minInterval,
    ]

    public static func named(_ name: String) -> ConfigKey? { all.first { $0.name == name } }
}
