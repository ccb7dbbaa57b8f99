import MTTCore

/// `--node fake[:N]`: an emulated node on in-process socket pairs, driven by the same GATT client
/// code as a real node. It connects again after a drop as a real node does: a new link to the same
/// node, which kept its keys and frame counter.
public struct EmulatedNode: NodeConnector {
    public let node: MapTheThingsNode
    public let emulator: NodeEmulator
    private let index: Int
    private let sendTimeout: Double
    private let attTimeout: Double
    private let clock: any TimeSource

    public var name: String { "fake:\(index)" }

    /// In this process: tried each second.
    public var longestRetryWait: Double { 1 }

    /// Starts an emulator and connects a node driver to it.
    public static func start(
        index: Int = 1, joined: Bool = true, options: EmulatorOptions = EmulatorOptions(), sendTimeout: Double = MapTheThingsProfile.sendTimeout,
        attTimeout: Double = 30, clock: any TimeSource = SystemClock()
    ) async throws -> EmulatedNode {
        // Distinct DevEUIs, so several fake nodes are told apart on the (simulated) network.
        let emulator = NodeEmulator(joined: joined, devEUI: "0004A30B001C05" + Hex.string([UInt8(truncatingIfNeeded: index)]), clock: clock)
        await emulator.configure { behaviour in
            if let airtime = options.airtime { behaviour.airtime = airtime }
            behaviour.failures = options.failures
        }
        let node = try await link(to: emulator, name: "fake:\(index)", sendTimeout: sendTimeout, attTimeout: attTimeout, clock: clock)
        return EmulatedNode(node: node, emulator: emulator, index: index, sendTimeout: sendTimeout, attTimeout: attTimeout, clock: clock)
    }

    /// A new link to the same emulated node (which kept its keys and frame counter).
    public func connect() async throws -> any NodeLink {
        try await Self.link(to: emulator, name: name, sendTimeout: sendTimeout, attTimeout: attTimeout, clock: clock)
    }

    private static func link(to emulator: NodeEmulator, name: String, sendTimeout: Double, attTimeout: Double, clock: any TimeSource) async throws -> MapTheThingsNode {
        let (client, server) = try SeqPacketBearer.pair(name: name)
        Task { await emulator.serve(server) }
        return try await MapTheThingsNode.connect(bearer: client, name: name, sendTimeout: sendTimeout, attTimeout: attTimeout, clock: clock)
    }
}
