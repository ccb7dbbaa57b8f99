import ArgumentParser
import Foundation
import MTTCore
import MTTSerial

struct Node: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Read or set up a node: its keys, spreading factor, link.",
        subcommands: [Info.self, Provision.self, SpreadingFactor.self, Disconnect.self])

    struct NodeOptions: ParsableArguments {
        @Option(help: ArgumentHelp("serial:DEVICE?modem=rn2483|rui3, fake-rn2483, fake-rui3, ble:MAC, ble:auto, unix:PATH or fake.", valueName: "spec"))
        var node: String

        func validate() throws {
            do {
                if case .serial(let text) = try NodeSpec(parsing: node) {
                    _ = try SerialNodeSpec(parsing: text)
                }
            } catch {
                throw ValidationError(error.description)
            }
        }

        /// Runs `body` on the serial modem (real or emulated) and closes it; other kinds are not built yet.
        func withModem<T>(command: String, _ body: (any ModemLink) async throws -> T) async throws -> T {
            let spec = try NodeSpec(parsing: node)
            guard let opened = try await SerialNodes.open(spec) else {
                throw RuntimeFailure("`mtt node \(command)` for \(spec) nodes is not implemented yet in mtt \(MTTVersion.current); serial modems work")
            }
            do {
                let result = try await body(opened.link)
                await opened.link.close()
                return result
            } catch {
                await opened.link.close()
                throw error
            }
        }
    }

    struct Info: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the node's model, DevEUI, DevAddr, SF and join state.")
        @OptionGroup var options: NodeOptions
        @OptionGroup var output: OutputOptions

        func run() async throws {
            let (info, name) = try await options.withModem(command: "info") { link in (try await link.info(), link.name) }
            if output.json {
                try JSONLine.print(NodeInfoJSON(info, node: name))
            } else {
                Console.out("""
                    Node      \(name)
                    Model     \(info.model)
                    DevEUI    \(info.devEUI ?? "?")
                    DevAddr   \(info.devAddr ?? "?")
                    SF        \(info.spreadingFactor.map { "SF\($0)" } ?? "?")
                    Joined    \(info.isJoined ? "yes" : "no: run mtt node provision --join")
                    """)
            }
        }
    }

    struct Provision: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write OTAA keys, in the order the TTN console shows them, and optionally join.",
            discussion: "The AppKey is a secret: it is read from --app-key-file or MTT_APP_KEY, never from the command line.")
        @OptionGroup var options: NodeOptions
        @Option(name: .customLong("dev-eui"), help: ArgumentHelp("DevEUI, 16 hex digits, MSB first as in the console.", valueName: "hex"))
        var devEUI: String
        @Option(name: .customLong("join-eui"), help: ArgumentHelp("JoinEUI (AppEUI), 16 hex digits.", valueName: "hex"))
        var joinEUI: String
        @Option(name: .customLong("app-key-file"), help: ArgumentHelp("File holding the AppKey (32 hex digits).", valueName: "file"))
        var appKeyFile: String?
        @Flag(help: "Join right after writing the keys.")
        var join = false

        func run() async throws {
            let appKey = try SecretInput.read(file: appKeyFile, environment: "MTT_APP_KEY", what: "the AppKey")
            try await options.withModem(command: "provision") { link in
                try await link.provisionOTAA(devEUI: devEUI, joinEUI: joinEUI, appKey: appKey)
                Console.out("keys written to \(link.name)")
                if join {
                    guard try await link.joinOTAA() else {
                        throw RuntimeFailure("the network did not accept the join: check the keys in the TTN console and the gateway coverage")
                    }
                    Console.out("joined")
                }
            }
        }
    }

    struct SpreadingFactor: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "sf", abstract: "Set the spreading factor (7 to 10 for US915, 7 to 12 for EU868).")
        @OptionGroup var options: NodeOptions
        @Argument(help: "7 to 12.") var value: Int

        func run() async throws {
            try await options.withModem(command: "sf") { link in
                try await link.setSpreadingFactor(value)
                Console.out("\(link.name) now sends at SF\(value)")
            }
        }
    }

    struct Disconnect: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Ask a BLE node to drop its link.")
        @OptionGroup var options: NodeOptions
        func run() async throws { throw RuntimeFailure.notImplemented("node disconnect") }
    }
}

/// `mtt node info --json`.
struct NodeInfoJSON: Encodable {
    var node: String
    var model: String
    var devEUI: String?
    var devAddr: String?
    var spreadingFactor: Int?
    var joined: Bool

    init(_ info: NodeInfo, node: String) {
        self.node = node
        model = info.model
        devEUI = info.devEUI
        devAddr = info.devAddr
        spreadingFactor = info.spreadingFactor
        joined = info.isJoined
    }

    enum CodingKeys: String, CodingKey {
        case node, model, joined
        case devEUI = "dev_eui"
        case devAddr = "dev_addr"
        case spreadingFactor = "sf"
    }
}
