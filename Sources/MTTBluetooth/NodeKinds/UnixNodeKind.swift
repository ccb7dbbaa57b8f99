import MTTCore

extension NodeKind {
    /// `unix:PATH`: ATT PDUs over a Unix SOCK_SEQPACKET socket, to an emulator (`mtt fake-node`).
    public static let unix = NodeKind(name: "unix", form: "unix:PATH", simulatedAs: "emulated node (unix:)") { text throws(SpecError) in
        let path = String(text.dropFirst("unix:".count))
        guard !path.isEmpty else { throw SpecError("bad node spec \(text): unix: needs the socket's path") }
        return NodeRecipe(description: text) { _ in [try await open(path: path, name: text)] }
    }

    private static func open(path: String, name: String) async throws -> OpenedNode {
        let bearer = try SeqPacketBearer.connect(unixPath: path)
        let node = try await MapTheThingsNode.connect(bearer: bearer, name: name)
        // A socket on this machine: tried each second.
        return OpenedNode(link: node, connector: ReopeningConnector(name: name, longestRetryWait: 1) {
            try await open(path: path, name: name).link
        })
    }
}
