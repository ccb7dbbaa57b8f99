/// What went wrong with a serial device, naming the device.
public enum SerialPortError: Error, Equatable, CustomStringConvertible {
    case cannotOpen(path: String, message: String)
    case unsupportedBaud(Int)
    case configuration(path: String, message: String)
    case timedOut(path: String, operation: String)
    case closed(path: String)
    case io(path: String, message: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let message): return "cannot open \(path): \(message)"
        case .unsupportedBaud(let baud): return "unsupported baud rate \(baud)"
        case .configuration(let path, let message): return "cannot configure \(path): \(message)"
        case .timedOut(let path, let operation): return "\(path): \(operation) timed out"
        case .closed(let path): return "\(path) was closed or unplugged"
        case .io(let path, let message): return "\(path): \(message)"
        }
    }
}
