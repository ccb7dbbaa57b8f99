import MTTCore

/// Reaches a MapTheThings node from its spec again after a loss: the same BLE address or Unix
/// socket. (Serial modems have MTTSerial's `ModemConnector`.)
struct ReopeningConnector: NodeConnector {
    let name: String
    let spec: NodeSpec

    func connect() async throws -> any NodeLink {
        try await NodeOpener.open(spec).link
    }

    /// A socket on this machine is tried each second; a BLE node at most every 30 s.
    var longestRetryWait: Double {
        if case .ble = spec { return 30 }
        return 1
    }
}
