import ArgumentParser

struct Node: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Read or set up a node: its keys, spreading factor, link.",
        subcommands: [Info.self, Provision.self, SpreadingFactor.self, Disconnect.self])

    struct NodeOptions: ParsableArguments {
        @Option(help: ArgumentHelp("ble:MAC, ble:auto, serial:DEV?modem=rn2483, unix:PATH or fake.", valueName: "spec"))
        var node: String
    }

    struct Info: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the node's DevEUI, DevAddr, SF and battery.")
        @OptionGroup var options: NodeOptions
        func run() async throws { throw RuntimeFailure.notImplemented("node info") }
    }

    struct Provision: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Write OTAA or ABP keys, in the order the TTN console shows them.")
        @OptionGroup var options: NodeOptions
        func run() async throws { throw RuntimeFailure.notImplemented("node provision") }
    }

    struct SpreadingFactor: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "sf", abstract: "Set the spreading factor, 7 to 10.")
        @OptionGroup var options: NodeOptions
        @Argument(help: "7, 8, 9 or 10.") var value: Int
        func run() async throws { throw RuntimeFailure.notImplemented("node sf") }
    }

    struct Disconnect: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Ask the node to drop its BLE link.")
        @OptionGroup var options: NodeOptions
        func run() async throws { throw RuntimeFailure.notImplemented("node disconnect") }
    }
}
