/// Where a node emulator waits for centrals: a Unix socket (`unix:PATH`) or the kernel's LE ATT
/// channel on an adapter (`ble:hciN`). One connection at a time, as a node takes one central.
public protocol ATTListener: Sendable {
    /// What a central gives to reach it, for messages: `unix:/tmp/node`, `ble:00:AA:01:01:00:01`.
    var address: String { get }
    /// Waits for the next central.
    func accept() async throws(BearerError) -> any ATTBearer
}
