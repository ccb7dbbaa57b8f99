import MTTCore

/// Opens a serial modem, with the emulator behind it when it is a fake one.
enum ModemNodes {
    /// The device it was opened on (an emulator's own pseudo-terminal for a fake one).
    static func open(_ spec: SerialNodeSpec, name: String, emulator: ModemEmulator? = nil) async throws -> OpenedNode {
        // Reached again by its device: an emulated one by its own pseudo-terminal, not a new emulator.
        OpenedNode(link: try await ModemLinks.open(spec), connector: ModemConnector(spec: spec), radio: emulator, keepAlive: emulator)
    }
}

extension NodeKind {
    /// `serial:DEVICE?modem=KIND[&baud=N]`: a USB LoRaWAN modem speaking one of MTTSerial's
    /// command sets (`ModemKind.registered`).
    public static let serial = NodeKind(name: "serial", form: "serial:DEVICE?modem=KIND[&baud=N]", checksLinks: true) { text throws(SpecError) in
        let spec = try SerialNodeSpec(parsing: text)
        return NodeRecipe(description: text) { _ in [try await ModemNodes.open(spec, name: text)] }
    }
}
