/// Carries ATT PDUs, one per message: an L2CAP ATT channel to a real node, a Unix SOCK_SEQPACKET
/// socket to an emulator. The GATT client and the node emulator are written against this alone,
/// so the same code runs over a socket pair in tests and over BlueZ in the car.
public protocol ATTBearer: Sendable {
    /// Where the link goes, for messages: `ble:AA:BB:CC:DD:EE:FF`, `unix:PATH`.
    var name: String { get }
    /// Sends one PDU.
    func send(_ pdu: [UInt8]) throws(BearerError)
    /// The PDUs the peer sends, in order. Call once; the stream ends when the link drops.
    func incoming() -> AsyncStream<[UInt8]>
    /// Why the link ended, once it has.
    var closeReason: String? { get }
    /// The largest ATT PDU the transport itself carries, when it has a limit: the kernel's L2CAP
    /// MTU on a Bluetooth link. The GATT client asks for no more in its MTU exchange.
    var mtuLimit: UInt16? { get }
    func close()
}

extension ATTBearer {
    public var mtuLimit: UInt16? { nil }
}

public enum BearerError: Error, Hashable, CustomStringConvertible {
    case closed(String)
    case system(call: String, message: String)

    public var description: String {
        switch self {
        case .closed(let reason): return "the link is down: \(reason)"
        case .system(let call, let message): return "\(call) failed: \(message)"
        }
    }
}
