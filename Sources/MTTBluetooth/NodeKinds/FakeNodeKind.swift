import MTTCore

extension NodeKind {
    /// `fake[:N][?airtime=S&fail=SHARE]`: N MapTheThings nodes emulated in this process, each a
    /// GATT server over a socket pair, so the very client code that talks to hardware runs.
    public static let fake = NodeKind(
        name: "fake", form: "fake[:N][?airtime=S&fail=SHARE]", simulatedAs: "fake node", followsTheRunClock: true,
        names: { $0 == "fake" || $0.hasPrefix("fake:") || $0.hasPrefix("fake?") }
    ) { text throws(SpecError) in
        let parts = text.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var count = 1
        if parts[0] != "fake" {
            guard let n = Int(parts[0].dropFirst("fake:".count)), (1...16).contains(n) else {
                throw SpecError("bad node spec \(text): fake:N takes 1 to 16 nodes")
            }
            count = n
        }
        let options = parts.count == 2 ? try EmulatorOptions(parsing: parts[1], spec: text) : EmulatorOptions()
        let base = count == 1 ? "fake" : "fake:\(count)"
        let description = options.description.isEmpty ? base : base + "?" + options.description
        return NodeRecipe(description: description) { [count] opening in
            try await (1...count).asyncMap { index in
                // Its silence after a failed send runs on the run's time, as its GPS does.
                let fake = try await EmulatedNode.start(index: index, options: options, sendTimeout: MapTheThingsProfile.sendTimeout / opening.speed)
                return OpenedNode(link: fake.node, connector: fake, radio: fake.emulator, keepAlive: fake.emulator)
            }
        }
    }
}

extension ClosedRange where Bound == Int {
    func asyncMap<T>(_ transform: (Int) async throws -> T) async rethrows -> [T] {
        var out: [T] = []
        for i in self { out.append(try await transform(i)) }
        return out
    }
}
