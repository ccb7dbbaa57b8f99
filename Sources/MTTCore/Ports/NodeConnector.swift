/// How to reach a node, again and again: active mode opens it at the start and after every loss
/// (a BLE node out of range, a modem unplugged and plugged back).
public protocol NodeConnector: Sendable {
    /// The node spec, for logs and the database.
    var name: String { get }
    /// Opens the node: connects, discovers, and is ready to send. Throws while it cannot be reached.
    func connect() async throws -> any NodeLink
}
