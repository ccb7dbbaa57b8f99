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
    /// Opens `serial:…`, `fake-rn2483` or `fake-rui3`; nil for specs that are not serial modems.
    public static func open(_ spec: NodeSpec, timeouts: ModemTimeouts = ModemTimeouts()) async throws -> OpenedModem? {
        switch spec {
        case .serial(let text):
            let serial = try SerialNodeSpec(parsing: text)
            return OpenedModem(link: try await ModemLinks.open(serial, timeouts: timeouts), emulator: nil, spec: serial)
        case .fakeRN2483, .fakeRUI3:
            let kind: ModemKind = spec == .fakeRN2483 ? .rn2483 : .rui3
            let emulator = try ModemEmulator(kind: kind)
            let serial = SerialNodeSpec(path: emulator.slavePath, modem: kind)
            return OpenedModem(link: try await ModemLinks.open(serial, timeouts: timeouts), emulator: emulator, spec: serial)
        default:
            return nil
        }
    }
}
