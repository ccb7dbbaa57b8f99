/// How to reach a node, again and again: active mode opens it at the start and after every loss
/// (a BLE node out of range, a modem unplugged and plugged back).
public protocol NodeConnector: Sendable {
    /// The node spec, for logs and the database.
    var name: String { get }
    /// Opens the node: connects, discovers, and is ready to send. Throws while it cannot be reached.
    func connect() async throws -> any NodeLink
    /// The longest wait between two tries to reach it again. A BLE connection costs a page scan
    /// and the air: 30 s. A device file or a socket on this machine costs a failed open, so it can
    /// be tried each second and is driven again within about a second of being back.
    var longestRetryWait: Double { get }
}

extension NodeConnector {
    public var longestRetryWait: Double { 30 }
}
