import ArgumentParser
import Foundation
import MTTBluetooth
import MTTCore
import MTTSerial

struct Node: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Read or set up a node: its keys, spreading factor, link.",
        subcommands: [Info.self, Provision.self, Join.self, SpreadingFactor.self, Disconnect.self])

    struct NodeOptions: ParsableArguments {
        @Option(help: ArgumentHelp("\(NodeKind.formsHelp).", valueName: "spec"))
        var node: String

        func validate() throws {
            do {
                _ = try NodeKind.spec(node)
            } catch {
                throw ValidationError(error.description)
            }
        }

        /// Runs `body` on the opened node and closes it, whatever happens.
        func withNode<T>(_ body: (OpenedNode) async throws -> T) async throws -> T {
            // One node: the first of a spec that names several (fake:3).
            let all = try await NodeKind.spec(node).open()
            guard let opened = all.first else { throw RuntimeFailure("\(node) opened no node") }
            for other in all.dropFirst() { await other.link.close() }
            do {
                let result = try await body(opened)
                await opened.link.close()
                return result
            } catch {
                await opened.link.close()
                throw error
            }
        }
    }

    struct Info: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the node's model, DevEUI, DevAddr, SF, battery and join state.")
        @OptionGroup var options: NodeOptions
        @OptionGroup var output: OutputOptions

        func run() async throws {
            let (info, name) = try await options.withNode { opened in (try await opened.link.info(), opened.link.name) }
            if output.json {
                try JSONLine.print(NodeInfoJSON(info, node: name))
            } else {
                Console.out("""
                    Node      \(name)
                    Model     \(info.model)
                    DevEUI    \(info.devEUI ?? "?")
                    DevAddr   \(info.devAddr ?? "?")
                    SF        \(info.spreadingFactor.map { "SF\($0)" } ?? "?")
                    Battery   \(info.battery.map { "\($0) %" } ?? "?")
                    Joined    \(info.isJoined ? "yes" : "no: run mtt node provision")
                    """ + (info.attMTU.map { "\nATT MTU   \($0)" } ?? ""))
            }
        }
    }

    struct Provision: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write OTAA keys, in the order the TTN console shows them, and join.",
            discussion: """
                The AppKey is a secret: it is read from --app-key-file or MTT_APP_KEY, never from the \
                command line. A MapTheThings node joins by itself once the keys are written; a serial \
                modem joins with --join.
                """)
        @OptionGroup var options: NodeOptions
        @Option(name: .customLong("dev-eui"), help: ArgumentHelp("DevEUI, 16 hex digits, MSB first as in the console.", valueName: "hex"))
        var devEUI: String
        @Option(name: .customLong("join-eui"), help: ArgumentHelp("JoinEUI (AppEUI), 16 hex digits.", valueName: "hex"))
        var joinEUI: String
        @Option(name: .customLong("app-key-file"), help: ArgumentHelp("File holding the AppKey (32 hex digits).", valueName: "file"))
        var appKeyFile: String?
        @Flag(help: "Serial modems: join right after writing the keys.")
        var join = false

        func run() async throws {
            let appKey = try SecretInput.read(file: appKeyFile, environment: "MTT_APP_KEY", what: "the AppKey")
            try await options.withNode { opened in
                let link = opened.link
                let joinedByItself = try await link.provision(devEUI: devEUI, joinEUI: joinEUI, appKey: appKey)
                if joinedByItself == false { throw Self.joinRefused }
                Console.out("keys written to \(link.name)")
                if joinedByItself == nil && join {
                    guard try await link.join() else { throw Self.joinRefused }
                }
                if joinedByItself == true || join { Console.out("joined") }
            }
        }

        static let joinRefused = RuntimeFailure("the node did not join: check the keys in the TTN console and that a gateway is in range")
    }

    struct Join: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send one join-request with the keys the node holds and say whether it joined.",
            discussion: """
                A serial modem starts not joined after every power-up; `mtt collect` joins it by itself \
                (within LoRaWAN's join back-off), so this is for trying keys and coverage by hand. A \
                MapTheThings node joins by itself: this only says whether it has.
                """)
        @OptionGroup var options: NodeOptions

        func run() async throws {
            try await options.withNode { opened in
                guard try await opened.link.join() else { throw Provision.joinRefused }
                Console.out("\(opened.link.name) joined")
            }
        }
    }

    struct SpreadingFactor: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "sf", abstract: "Set the spreading factor (7 to 10 for US915 and the BLE node, 7 to 12 for EU868 modems).")
        @OptionGroup var options: NodeOptions
        @Argument(help: "7 to 12.") var value: Int

        func run() async throws {
            try await options.withNode { opened in
                try await opened.link.setSpreadingFactor(value)
                Console.out("\(opened.link.name) now sends at SF\(value)")
            }
        }
    }

    struct Disconnect: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Ask a MapTheThings node to drop its BLE link (so a phone can connect).")
        @OptionGroup var options: NodeOptions

        func run() async throws {
            try await options.withNode { opened in
                try await opened.link.dropLink()
                Console.out("\(opened.link.name) dropped the link")
            }
        }
    }
}

/// `mtt node info --json`.
struct NodeInfoJSON: Encodable {
    var node: String
    var model: String
    var devEUI: String?
    var devAddr: String?
    var spreadingFactor: Int?
    var battery: Int?
    var joined: Bool
    var attMTU: Int?

    init(_ info: NodeInfo, node: String) {
        self.node = node
        model = info.model
        devEUI = info.devEUI
        devAddr = info.devAddr
        spreadingFactor = info.spreadingFactor
        battery = info.battery
        joined = info.isJoined
        attMTU = info.attMTU
    }

    enum CodingKeys: String, CodingKey {
        case node, model, joined, battery
        case devEUI = "dev_eui"
        case devAddr = "dev_addr"
        case spreadingFactor = "sf"
        case attMTU = "att_mtu"
    }
}
