import MTTCore

/// A network server whose MQTT uplinks mtt hears: its topics, how it writes an uplink and how the
/// simulated network writes one as it would. A network is one file declaring a `NetworkServer` and
/// one line in `registered`; `mtt collect --network`, the configuration's `collect.network` and the
/// help read the list.
public struct NetworkServer: RegisteredKind {
    /// Its name on the command line and in the configuration.
    public let name: String
    /// One line for `mtt collect --help`: what it is and what it needs.
    public let help: String
    /// How its devices are named, for messages: "ID", "DEV_EUI".
    public let deviceName: String
    /// The application a subscription names, when it must name one, for messages: nil where the
    /// MQTT user is the application (The Things Stack).
    public let application: String?
    /// The topics of these devices.
    let topics: @Sendable (NetworkSubscription) throws(SpecError) -> [String]
    /// One message, by its topic and payload; `networkID` is the subscription's, for messages that
    /// name none.
    let decode: @Sendable (_ topic: String, _ payload: [UInt8], _ networkID: String) throws(UplinkDecodeError) -> UplinkDecoding
    /// The topic and message this server would publish `uplink` with (the simulated network's).
    let encode: @Sendable (_ uplink: Uplink, _ username: String) -> (topic: String, payload: [UInt8])
    /// Whether its MQTT servers speak MQTT 5 (each downlink acknowledged, a refusal told).
    let speaksMQTT5: Bool
    /// The network id its uplinks carry when its messages name none, from the one given and the
    /// MQTT server's host; nil when they always do.
    let networkID: @Sendable (_ given: String?, _ host: String) -> String?
    /// The topic and message that queue `downlink` (SPEC §10.1); `username` the run's MQTT user,
    /// `replace` whether it replaces the device's queue (The Things Stack) rather than joining it.
    let downlink: @Sendable (_ downlink: Downlink, _ username: String, _ replace: Bool) -> (topic: String, payload: [UInt8])
    /// The topics its downlinks are queued on, and a downlink read back from one: what a simulated
    /// device hears of the replies it is sent.
    let downlinkTopics: @Sendable (_ username: String) -> [String]
    let decodeDownlink: @Sendable (_ topic: String, _ payload: [UInt8]) -> Downlink?

    /// Every network, the default first. A new one is one file and one line here.
    public static let registered: [NetworkServer] = [
        .theThingsStack,
        .chirpStack,
        .helium,
    ]

    /// `tts` when nothing is said.
    public static var standard: NetworkServer { registered[0] }

    /// The help of every network, a line each, for `--network`.
    public static var helpText: String {
        registered.map { "\($0.name): \($0.help)" }.joined(separator: "; ")
    }
}

/// What a run hears: the application (its MQTT user on The Things Stack, its id on ChirpStack),
/// its devices, and whether the broker is the simulated network's, which has defaults of its own.
public struct NetworkSubscription: Sendable {
    public var username: String?
    public var application: String?
    public var devices: [String]
    public var simulated: Bool

    public init(username: String?, application: String?, devices: [String], simulated: Bool) {
        self.username = username
        self.application = application
        self.devices = devices
        self.simulated = simulated
    }
}
