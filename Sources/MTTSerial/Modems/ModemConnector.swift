import MTTCore

/// Reaches a serial modem by its device path, at the start and after every unplugging. Name the
/// modem by its `/dev/serial/by-id/…` link: the kernel may give it another ttyUSBn when it comes
/// back, and the link follows it.
public struct ModemConnector: NodeConnector {
    public let spec: SerialNodeSpec
    public let timeouts: ModemTimeouts

    public init(spec: SerialNodeSpec, timeouts: ModemTimeouts = ModemTimeouts()) {
        self.spec = spec
        self.timeouts = timeouts
    }

    public var name: String { spec.description }

    /// A device path: a failed open costs nothing, so it is tried each second.
    public var longestRetryWait: Double { 1 }

    public func connect() async throws -> any NodeLink {
        try await ModemLinks.open(spec, timeouts: timeouts)
    }
}
