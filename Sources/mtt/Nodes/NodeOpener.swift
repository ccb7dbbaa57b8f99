import MTTBluetooth
import MTTCore
import MTTSerial

/// A node opened from a `--node` spec, with whatever must stay alive behind it (an emulator).
enum OpenedNode {
    case modem(OpenedModem)
    case mapTheThings(MapTheThingsNode, emulator: NodeEmulator?)

    var link: any NodeLink {
        switch self {
        case .modem(let opened): return opened.link
        case .mapTheThings(let node, _): return node
        }
    }

    /// The emulator's radio behind a fake node, which the simulated network hears.
    var radio: (any EmulatedRadio)? {
        switch self {
        case .modem(let opened): return opened.emulator
        case .mapTheThings(_, let emulator): return emulator
        }
    }

    /// What reaches this very node again after a loss: a modem by its device (an emulated one by
    /// its own pseudo-terminal, not a new emulator), anything else by its spec.
    func connector(for spec: NodeSpec) -> any NodeConnector {
        if case .modem(let opened) = self { return opened.connector }
        // ble:auto found a node: after a loss, that node and no other nearer one by then.
        if case .ble(nil, _) = spec, let found = try? NodeSpec(parsing: link.name) {
            return ReopeningConnector(name: link.name, spec: found)
        }
        return ReopeningConnector(name: link.name, spec: spec)
    }
}

/// Builds the node a spec names: the only place that knows every kind of node.
enum NodeOpener {
    /// Every `--node` form with the modem kinds, for help.
    static let formsHelp = "\(NodeSpec.forms); KIND \(ModemKind.namesText)"

    /// A `--node` value, read and checked as far as it can be without opening it.
    static func parse(_ text: String) throws(SpecError) -> NodeSpec {
        let spec = try NodeSpec(parsing: text)
        try SerialNodes.check(spec)
        return spec
    }

    static func open(_ spec: NodeSpec, scanSeconds: Double = 10) async throws -> OpenedNode {
        if let modem = try await SerialNodes.open(spec) { return .modem(modem) }
        switch spec {
        case .fake(_, let options):
            let fake = try await EmulatedNode.start(index: 1, options: options)
            return .mapTheThings(fake.node, emulator: fake.emulator)
        case .unix(let path):
            let bearer = try SeqPacketBearer.connect(unixPath: path)
            return .mapTheThings(try await MapTheThingsNode.connect(bearer: bearer, name: spec.description), emulator: nil)
        case .ble(let address?, let type):
            let bearer = try BlueZ.connectATT(address: address, type: type)
            return .mapTheThings(try await MapTheThingsNode.connect(bearer: bearer, name: spec.description, firstAnswerTimeout: BlueZ.firstAnswerTimeout), emulator: nil)
        case .ble(nil, _):
            // The first node heard: waiting out the scan for a stronger one would cost seconds on every start.
            let nodes = try await BlueZ.scan(seconds: scanSeconds, until: { $0.advertisement.isMapTheThingsNode }).filter(\.advertisement.isMapTheThingsNode)
            guard let found = nodes.first else {
                throw RuntimeFailure("no MapTheThings node advertised within \(Int(scanSeconds)) s: is it on, and not connected to a phone?")
            }
            let bearer = try BlueZ.connectATT(address: found.address, type: found.bleAddressType)
            let name = NodeSpec.ble(address: found.address, type: found.typeIfNotGuessed).description
            return .mapTheThings(try await MapTheThingsNode.connect(bearer: bearer, name: name, firstAnswerTimeout: BlueZ.firstAnswerTimeout), emulator: nil)
        case .serial, .fakeModem:
            preconditionFailure("serial specs are opened by SerialNodes")
        }
    }
}
