import ArgumentParser
import MTTBluetooth
import MTTCore

struct Scan: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Look for MapTheThings nodes over Bluetooth LE.",
        discussion: """
            Uses the kernel's Bluetooth management channel, so bluetoothd can keep running; needs \
            root or CAP_NET_ADMIN. Nodes are recognised by their LoRa service (0x1830) or their name.
            """)

    @Option(help: ArgumentHelp("How long to scan, e.g. 10s.", valueName: "duration"))
    var timeout = DurationArgument(seconds: 10)

    func validate() throws {
        try timeout.check("--timeout")
    }

    @Flag(help: "List every advertiser, not only MapTheThings nodes.")
    var all = false

    @OptionGroup var output: OutputOptions

    struct Found: Encodable {
        var address: String
        var addressType: String
        var rssi: Int
        var name: String?
        /// The 16-bit services it advertises, as 4 hex digits (MapTheThings: 1830).
        var services: [String]
        var mapthethings: Bool
        /// What to give --node.
        var node: String

        enum CodingKeys: String, CodingKey {
            case address, rssi, name, services, mapthethings, node
            case addressType = "address_type"
        }
    }

    func run() async throws {
        let devices = try await BlueZ.scan(seconds: timeout.seconds).filter { all || $0.advertisement.isMapTheThingsNode }
        for device in devices {
            let type = device.bleAddressType.rawValue
            let node = BLENodeAddress.spec(address: device.address, type: device.typeIfNotGuessed)
            if output.json {
                try JSONLine.print(Found(
                    address: device.address, addressType: type, rssi: device.rssi, name: device.advertisement.name,
                    services: device.advertisement.serviceUUIDs.map(\.description), mapthethings: device.advertisement.isMapTheThingsNode, node: node))
            } else {
                Console.out("\(device.address)  \(type)  \(device.rssi) dBm  \(device.advertisement.name ?? "")  → --node \(node)")
            }
        }
        if devices.isEmpty && !output.json {
            Console.out("no MapTheThings node heard in \(timeout): is it on, and not connected to a phone?")
        }
    }
}
