import MTTCore

/// `--node fake[:N]`: emulated nodes on in-process socket pairs, driven by the same GATT client
/// code as a real node.
public struct EmulatedNode: Sendable {
    public let node: MapTheThingsNode
    public let emulator: NodeEmulator

    /// Starts an emulator and connects a node driver to it.
    public static func start(
        index: Int = 1, joined: Bool = true, sendTimeout: Double = MapTheThingsProfile.sendTimeout, attTimeout: Double = 30
    ) async throws -> EmulatedNode {
        let (client, server) = try SeqPacketBearer.pair(name: "fake:\(index)")
        // Distinct DevEUIs, so several fake nodes are told apart on the (simulated) network.
        let emulator = NodeEmulator(joined: joined, devEUI: "0004A30B001C05" + Hex.string([UInt8(truncatingIfNeeded: index)]))
        Task { await emulator.serve(server) }
        let node = try await MapTheThingsNode.connect(bearer: client, name: "fake:\(index)", sendTimeout: sendTimeout, attTimeout: attTimeout)
        return EmulatedNode(node: node, emulator: emulator)
    }
}
