/// Why a collection run stopped by itself.
public enum CollectError: Error, CustomStringConvertible {
    case network(String)

    public var description: String {
        switch self {
        case .network(let reason): return reason
        }
    }
}
