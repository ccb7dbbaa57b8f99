import MTTCore

/// A serial node that is open, with the emulator behind it when it is a fake one
/// (kept alive as long as the node is used).
public struct OpenedModem: Sendable {
    public let link: any ModemLink
    public let emulator: ModemEmulator?
}

public enum SerialNodes {
    /// Opens `serial:…`, `fake-rn2483` or `fake-rui3`; nil for specs that are not serial modems.
    public static func open(_ spec: NodeSpec, timeouts: ModemTimeouts = ModemTimeouts()) async throws -> OpenedModem? {
        switch spec {
        case .serial(let text):
            return OpenedModem(link: try await ModemLinks.open(try SerialNodeSpec(parsing: text), timeouts: timeouts), emulator: nil)
        case .fakeRN2483, .fakeRUI3:
            let kind: ModemKind = spec == .fakeRN2483 ? .rn2483 : .rui3
            let emulator = try ModemEmulator(kind: kind)
            let link = try await ModemLinks.open(SerialNodeSpec(path: emulator.slavePath, modem: kind), timeouts: timeouts)
            return OpenedModem(link: link, emulator: emulator)
        default:
            return nil
        }
    }
}
