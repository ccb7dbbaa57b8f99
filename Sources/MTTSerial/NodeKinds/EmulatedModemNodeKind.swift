import MTTCore

extension NodeKind {
    /// `fake-KIND[?OPTIONS]`: a modem of a registered kind emulated on a pseudo-terminal, driven
    /// through the same serial code as a real one.
    public static let emulatedModem = NodeKind(
        name: "fake-KIND", form: "fake-KIND[?OPTIONS]", simulatedAs: "emulated modem", checksLinks: true,
        names: { $0.hasPrefix("fake-") }
    ) { text throws(SpecError) in
        let parts = text.dropFirst("fake-".count).split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard let kind = ModemKind.named(parts[0].lowercased()) else {
            throw SpecError("bad node spec \(text): the emulated modems are \(ModemKind.registered.map { "fake-\($0.name)" }.joined(separator: ", "))")
        }
        let options = try ModemEmulatorOptions(parsing: parts.count == 2 ? String(parts[1]) : "", spec: text)
        return NodeRecipe(description: text) { _ in
            let emulator = try ModemEmulator(kind: kind, options: options)
            return [try await ModemNodes.open(SerialNodeSpec(path: emulator.slavePath, modem: kind), name: text, emulator: emulator)]
        }
    }
}
