import MTTCore

/// A serial node that is open, with the emulator behind it when it is a fake one
/// (kept alive as long as the node is used).
public struct OpenedModem: Sendable {
    public let link: any ModemLink
    public let emulator: ModemEmulator?
    /// The device it was opened on (an emulator's own pseudo-terminal for a fake one).
    public let spec: SerialNodeSpec

    /// Opens this very modem again after it is unplugged.
    public var connector: ModemConnector { ModemConnector(spec: spec) }
}

public enum SerialNodes {
    /// Checks what a node spec says of serial modems (the device's options, the emulated kind), so a
    /// mistake is found where the spec is read rather than when the node is opened.
    public static func check(_ spec: NodeSpec) throws(SpecError) {
        switch spec {
        case .serial(let text): _ = try SerialNodeSpec(parsing: text)
        case .fakeModem(let name, let options):
            _ = try emulatedKind(name)
            _ = try ModemEmulatorOptions(parsing: options, spec: spec.description)
        default: break
        }
    }

    private static func emulatedKind(_ name: String) throws(SpecError) -> ModemKind {
        guard let kind = ModemKind.named(name) else { throw SpecError("bad node spec fake-\(name): the emulated modems are \(ModemKind.registered.map { "fake-\($0.name)" }.joined(separator: ", "))") }
        return kind
    }

    /// Opens `serial:…` or `fake-KIND`; nil for specs that are not serial modems.
    public static func open(_ spec: NodeSpec, timeouts: ModemTimeouts = ModemTimeouts()) async throws -> OpenedModem? {
        switch spec {
        case .serial(let text):
            let serial = try SerialNodeSpec(parsing: text)
            return OpenedModem(link: try await ModemLinks.open(serial, timeouts: timeouts), emulator: nil, spec: serial)
        case .fakeModem(let name, let options):
            let kind = try emulatedKind(name)
            let emulator = try ModemEmulator(kind: kind, options: try ModemEmulatorOptions(parsing: options, spec: spec.description))
            let serial = SerialNodeSpec(path: emulator.slavePath, modem: kind)
            return OpenedModem(link: try await ModemLinks.open(serial, timeouts: timeouts), emulator: emulator, spec: serial)
        default:
            return nil
        }
    }
}
