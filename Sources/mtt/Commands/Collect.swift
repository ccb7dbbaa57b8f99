import ArgumentParser
import MTTCore

struct Collect: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Collect coverage samples in active, matching or listener mode.",
        discussion: """
            active:   mtt makes the node transmit whenever you moved and the fix is good.
            matching: the node transmits on its own; mtt records the track and aligns uplinks to it.
            listener: mtt listens to TTN over MQTT and positions each uplink of the chosen devices.
            """)

    @Option(help: "active, matching or listener.")
    var mode: CollectionMode

    @Option(help: ArgumentHelp("A node to drive (repeatable): ble:MAC, ble:auto, serial:DEV?modem=rn2483, unix:PATH, fake[:N].", valueName: "spec"))
    var node: [String] = []

    @Option(help: ArgumentHelp("Where positions come from: gpsd[://HOST:PORT], nmea:FILE, fixed:LAT,LON[,ALT], fake.", valueName: "spec"))
    var gps = "gpsd"

    @Option(help: ArgumentHelp("`fake` simulates gateways hearing the fake node.", valueName: "name"))
    var network: String?

    @Option(name: .customLong("mqtt-url"), help: ArgumentHelp("The TTN MQTT server, mqtt://HOST:1883 or mqtts://HOST:8883.", valueName: "url"))
    var mqttURL: String?

    @Option(name: .customLong("mqtt-user"), help: ArgumentHelp("MQTT username, APP_ID@ttn.", valueName: "user"))
    var mqttUser: String?

    @Option(name: .customLong("mqtt-password-file"), help: ArgumentHelp("File holding the API key (or set MTT_MQTT_PASSWORD).", valueName: "file"))
    var mqttPasswordFile: String?

    @Option(name: .customLong("mqtt-ca"), help: ArgumentHelp("A CA certificate for a server with a private CA (mqtts:// checks certificates against the system's CAs otherwise).", valueName: "file"))
    var mqttCA: String?

    @Option(name: .customLong("mqtt-topic"), help: ArgumentHelp("Subscribe to this topic instead of v3/USER/devices/ID/up (repeatable).", valueName: "topic"))
    var mqttTopic: [String] = []

    @Option(help: ArgumentHelp("A TTN device ID to hear (repeatable; + for all).", valueName: "id"))
    var device: [String] = []

    @Option(help: ArgumentHelp("Stop after this long, e.g. 90s, 10m, 2h.", valueName: "duration"))
    var duration: String?

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        throw RuntimeFailure.notImplemented("collect")
    }
}

extension CollectionMode: ExpressibleByArgument {
    public static var allValueStrings: [String] { ["active", "matching", "listener"] }
}
