/// Why mtt cannot talk Bluetooth, in words that say what to do.
public enum BluetoothError: Error, Equatable, CustomStringConvertible {
    /// The kernel has no Bluetooth sockets (no module, a container, WSL).
    case unavailable
    case permissionDenied
    case system(call: String, errno: Int32, message: String)
    /// A scan for a MapTheThings node (`ble:auto`) heard none.
    case noNodeAdvertised(seconds: Double)

    public var description: String {
        switch self {
        case .unavailable:
            return "Bluetooth is not available on this system (AF_BLUETOOTH)"
        case .permissionDenied:
            return "no permission to open Bluetooth sockets: run as root or give mtt CAP_NET_RAW and CAP_NET_ADMIN"
        case .system(let call, let code, let message):
            return "Bluetooth \(call) failed: \(message) (errno \(code))"
        case .noNodeAdvertised(let seconds):
            return "no MapTheThings node advertised within \(Int(seconds)) s: is it on, and not connected to a phone?"
        }
    }
}
