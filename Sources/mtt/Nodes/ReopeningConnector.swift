import MTTCore

/// Reaches a node from its spec again after a loss: the same BLE address, Unix socket or serial
/// device path (a `/dev/serial/by-id/…` link follows the modem to whichever ttyUSBn it comes back as).
struct ReopeningConnector: NodeConnector {
    let name: String
    /// What to open: for an emulated modem, the device it already serves on.
    let spec: NodeSpec

    func connect() async throws -> any NodeLink {
        try await NodeOpener.open(spec).link
    }

    /// A socket or device on this machine is tried each second; a BLE node at most every 30 s.
    var longestRetryWait: Double {
        if case .ble = spec { return 30 }
        return 1
    }
}
