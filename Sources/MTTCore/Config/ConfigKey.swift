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
    /// Whole numbers in this range, for counts.
    public let range: ClosedRange<Int>?

    init(
        _ name: String, _ kind: Kind, _ defaultValue: ConfigValue? = nil, choices: [String]? = nil, allowsZero: Bool = false,
        range: ClosedRange<Int>? = nil, _ help: String
    ) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.choices = choices
        self.allowsZero = allowsZero
        self.range = range
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
    public static let nodes = ConfigKey("collect.nodes", .list, .list([]), "The nodes to drive, in the forms mtt collect's help lists: ble:ADDRESS or ble:auto, serial:DEVICE?modem=KIND, fake, fake-KIND.")
    public static let gps = ConfigKey("collect.gps", .text, .text("gpsd"), "Where positions come from, in the forms mtt collect's help lists: gpsd[://HOST:PORT], nmea:FILE, fixed:LAT,LON[,ALT], fake or jsonl:FILE.")
    // The network servers are MTTMQTT's registry: `mtt config check` and `mtt collect` read the
    // value through it, and `mtt collect --help` lists them.
    public static let network = ConfigKey(
        "collect.network", .text, nil,
        "The network server whose MQTT uplinks to hear: tts (The Things Stack, when not given) or another that mtt collect's help lists, with mqtt_url; fake: simulated gateways that hear this run's emulated nodes and nothing else (fake?format=NAME: publishing through mqtt_url as that network does).")
    public static let application = ConfigKey("collect.application", .text, nil, "ChirpStack: the application ID (a UUID) whose devices to hear, or + for all.")
    public static let networkID = ConfigKey(
        "collect.network_id", .text, nil,
        "ChirpStack: the network id every sample carries, NS_CHIRP://HOST (default the MQTT server's host) or NS_HELIUM://000024 on Helium; a bare host name means NS_CHIRP://HOST.")
    public static let maxReceptions = ConfigKey(
        "collect.max_receptions", .number, .number(Double(UplinkLimits().receptionsPerUplink)), range: 1...100_000,
        "Receptions kept of one uplink (the first ones): a message with more is not coverage but a flood.")
    public static let newGatewaysPerMinute = ConfigKey(
        "collect.new_gateways", .number, .number(Double(UplinkLimits().newGatewaysPerMinute)), range: 1...100_000,
        "Gateways new to a run taken in per minute; receptions from more are left out and counted (a flood of made-up gateway ids).")
    public static let mqttURL = ConfigKey("collect.mqtt_url", .text, nil, "The TTN MQTT server, mqtt://HOST:1883 or mqtts://HOST:8883.")
    public static let mqttUser = ConfigKey("collect.mqtt_user", .text, nil, "MQTT username, APP_ID@ttn.")
    public static let mqttPasswordFile = ConfigKey("collect.mqtt_password_file", .secretFile, nil, "File holding the API key (mode 600); or MTT_MQTT_PASSWORD.")
    public static let mqttCA = ConfigKey("collect.mqtt_ca", .text, nil, "A CA certificate for a server with a private CA.")
    public static let devices = ConfigKey("collect.devices", .list, .list([]), "TTN device IDs to hear (+ for all).")
    public static let interval = ConfigKey("collect.interval", .duration, nil, "Matching and listener modes: time between track points (default \(CollectionMode.matching.defaultTrackInterval.plainText) s in matching mode, \(CollectionMode.listener.defaultTrackInterval.plainText) s in listener mode; active mode stores every fix).")
    public static let web = ConfigKey("collect.web", .text, nil, "Also serve the live map on this address, e.g. 127.0.0.1:8080.")
    public static let webTokenFile = ConfigKey("collect.web_token_file", .secretFile, nil, "With web off loopback: the token's file (mode 600).")
    public static let every = ConfigKey("collect.every", .duration, nil, "Active mode: also send every this long when standing still.")
    public static let linkCheck = ConfigKey(
        "collect.linkcheck", .flag, .flag(false),
        "Active mode with serial modems: send a LoRaWAN link check with every uplink and store the answer (how many gateways heard it, the margin) with the attempt: coverage with no access to the network's MQTT.")
    public static let maxFixAge = ConfigKey("collect.max_fix_age", .duration, .number(SendPolicy().maximumFixAge), "Active mode: do not send on a fix older than this.")
    public static let maxEPH = ConfigKey("collect.max_eph", .number, .number(SendPolicy().maximumEPH), "Active mode: do not send when the GPS error estimate is above this many metres (the default is TTN Mapper's limit for its main map).")
    public static let minDistance = ConfigKey("collect.min_distance", .number, .number(SendPolicy().minimumDistance), "Active mode: metres to move between sends.")
    public static let minInterval = ConfigKey("collect.min_interval", .duration, .number(SendPolicy().minimumInterval), allowsZero: true, "Active mode: time between sends.")

    public static let trackerCodecs = ConfigKey(
        "trackers.codecs", .list, .list([]),
        "With gps = payload (listener mode): DEVICE=CODEC for devices whose network decodes nothing (DEVICE a device id, a DevEUI or + for all; codecs \(PositionCodec.namesText)).")
    public static let trackerMinimumSatellites = ConfigKey(
        "trackers.min_satellites", .number, .number(Double(PositionGates().minimumSatellites)), range: 0...99,
        "A payload position from fewer satellites is not placed (when the device says how many).")
    public static let trackerMaximumAccuracy = ConfigKey(
        "trackers.max_accuracy", .number, .number(PositionGates().maximumAccuracy),
        "A payload position with a larger accuracy figure, in metres, is not placed.")
    public static let trackerMaximumHDOP = ConfigKey(
        "trackers.max_hdop", .number, .number(PositionGates().maximumHDOP), "A payload position with a larger HDOP is not placed.")
    public static let trackerNullIsland = ConfigKey(
        "trackers.null_island", .number, .number(PositionGates().nullIslandDegrees),
        "Degrees around 0,0 in which no payload position is placed (a decoder's zeros).")
    public static let trackerGatesOff = ConfigKey(
        "trackers.gates_off", .list, .list([]),
        "TTN Mapper's gates not to apply to payload positions: \(ListText.or(PositionGates.Gate.allCases.map(\.rawValue))).")
    public static let trackerGapTime = ConfigKey(
        "trackers.gap_max_time", .duration, .number(FrameCounterGaps.Rules().maximumTime),
        "A tracker's frames nobody heard (a gap in its frame counters) are placed between the heard uplinks around them when these are at most this far apart in time; else kept unplaced.")
    public static let trackerGapDistance = ConfigKey(
        "trackers.gap_max_distance", .number, .number(FrameCounterGaps.Rules().maximumDistance),
        "A tracker's frames nobody heard are placed only when the heard uplinks around them are at most this many metres apart.")
    public static let trackerSessionGap = ConfigKey(
        "trackers.session_gap", .duration, .number(DeviceSessionSplitter().silence),
        "A device's own session ends after this much silence (or when its frame counter goes back).")

    public static let fieldTesters = ConfigKey(
        "field_tester.devices", .list, .list([]),
        "Listener mode: the field testers to answer (device ids, DevEUIs, or + for all): each test gets its reply as a downlink.")
    public static let fieldTesterDailyCap = ConfigKey(
        "field_tester.daily_cap", .number, .number(Double(FieldTesterDesk.Settings(devices: []).dailyCap)), range: 1...1_000,
        "Replies per field tester and UTC day at most (TTN's fair use is about 10 downlinks a day).")
    public static let fieldTesterQueue = ConfigKey(
        "field_tester.queue", .text, .text("replace"), choices: ["replace", "push"],
        "The Things Stack: replace the tester's downlink queue with each reply (replace), or add to it (push).")

    public static let syncTarget = ConfigKey("sync.target", .text, nil, choices: SyncTarget.registered.map(\.name), "\(SyncTarget.namesText) (default: mapthethings, ttnmapper and every other target configured).")
    public static let syncURL = ConfigKey("sync.url", .text, nil, "Where the target sends: MapTheThings' base URL, with target ttnmapper the URL documents are posted to, with target file the file, with target postgis the community database's postgresql:// URL.")
    public static let syncExperiment = ConfigKey("sync.experiment", .text, nil, "TTN Mapper: upload to this experiment instead of the main map.")
    public static let syncCredentialsFile = ConfigKey("sync.credentials_file", .secretFile, nil, "MapTheThings credentials file (user = …, token = …, secret = …; mode 600; default $XDG_CONFIG_HOME/mtt/mapthethings).")
    public static let syncCA = ConfigKey("sync.ca", .text, nil, "Also trust this CA certificate (PEM) for https:// servers.")
    public static let syncTimeout = ConfigKey("sync.timeout", .duration, .number(20), "Give up on one request after this long.")
    public static let syncConnections = ConfigKey("sync.connections", .number, .number(Double(SyncPolicy().concurrency)), range: 1...64, "Requests in flight at once.")
    public static let syncTries = ConfigKey("sync.tries", .number, .number(Double(SyncPolicy().triesPerRecord)), range: 1...1000, "Requests per record before it is left queued for the next run.")

    public static let fetchTTNURL = ConfigKey("fetch.ttn_url", .text, nil, "The Things Stack cluster, e.g. https://eu1.cloud.thethings.network (default: from the sessions' MQTT URL).")
    public static let fetchApp = ConfigKey("fetch.app", .text, nil, "The TTS application ID (default: from the sessions' MQTT user, APP_ID@ttn).")
    public static let fetchDevices = ConfigKey("fetch.devices", .list, .list([]), "TTS device IDs to read (+ for all) instead of those each session names.")
    public static let fetchSince = ConfigKey("fetch.since", .text, nil, "Complete the sessions since this time: RFC 3339 or a length of time ago (default 24h, what TTN keeps).")
    public static let fetchAPIKeyFile = ConfigKey("fetch.api_key_file", .secretFile, nil, "File holding an API key with \"Read application traffic\" (mode 600); or MTT_TTN_API_KEY, or MTT_MQTT_PASSWORD.")
    public static let fetchTimeout = ConfigKey("fetch.timeout", .duration, .number(30), "Give up on a request that sends nothing for this long.")

    public static let serveListen = ConfigKey("serve.listen", .text, .text("127.0.0.1:8080"), "Address to listen on. Anything but loopback needs the token.")
    public static let serveTokenFile = ConfigKey("serve.token_file", .secretFile, nil, "Off loopback: the token's file (mode 600; default a new token each start).")
    public static let serveTiles = ConfigKey("serve.tiles", .text, nil, "Map tiles: a URL with {z}/{x}/{y}, or none (default OpenStreetMap).")
    public static let serveQueryTimeout = ConfigKey(
        "serve.query_timeout", .duration, .number(10),
        "A community map: a read of its database, lock waits included, that takes longer is cancelled and answered 503.")

    public static let coverageLostAfter = ConfigKey("alerts.coverage_lost_after", .number, .number(Double(AlertRules().coverageLostAfter)), range: 1...1000, "coverage_lost after this many attempts in a row nobody heard.")
    public static let coverageSilence = ConfigKey("alerts.coverage_silence", .duration, .number(AlertRules().coverageSilence), "coverage_lost after this long without an uplink (in active mode only while attempts go unheard).")
    public static let heardWithin = ConfigKey("alerts.heard_within", .duration, .number(AlertRules().heardWithin), "An attempt not heard within this long is lost.")
    public static let batteryLow = ConfigKey("alerts.battery_low", .number, .number(Double(AlertRules().batteryLow)), range: 0...100, "battery_low at or under this many percent.")
    public static let mapURL = ConfigKey("alerts.map_url", .text, nil, "The mtt serve page events link to, e.g. http://raspberrypi.local:8080/ (with ?token=… off loopback).")

    /// Every setting, in the order `mtt config show` lists them.
    public static let all: [ConfigKey] = [
        database, mode, nodes, gps, network, mqttURL, mqttUser, mqttPasswordFile, mqttCA, devices, application, networkID,
        maxReceptions, newGatewaysPerMinute, interval, web, webTokenFile,
        every, linkCheck, maxFixAge, maxEPH, minDistance, minInterval,
        trackerCodecs, trackerMinimumSatellites, trackerMaximumAccuracy, trackerMaximumHDOP, trackerNullIsland, trackerGatesOff,
        trackerGapTime, trackerGapDistance, trackerSessionGap, fieldTesters, fieldTesterDailyCap, fieldTesterQueue,
        syncTarget, syncURL, syncExperiment, syncCredentialsFile, syncCA, syncTimeout, syncConnections, syncTries,
    ] + SyncTarget.registered.flatMap(\.configKeys) + [
        fetchTTNURL, fetchApp, fetchDevices, fetchSince, fetchAPIKeyFile, fetchTimeout,
        serveListen, serveTokenFile, serveTiles, serveQueryTimeout,
        coverageLostAfter, coverageSilence, heardWithin, batteryLow, mapURL,
    ]

    public static func named(_ name: String) -> ConfigKey? { all.first { $0.name == name } }
}
