/// A primary service found by discovery.
public struct GATTService: Sendable, Hashable {
    public var uuid: BluetoothUUID
    public var handles: ClosedRange<UInt16>
}

/// A characteristic found by discovery, with the properties its declaration gives.
public struct GATTCharacteristic: Sendable, Hashable {
    public struct Properties: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let read = Properties(rawValue: 0x02)
        public static let writeWithoutResponse = Properties(rawValue: 0x04)
        public static let write = Properties(rawValue: 0x08)
        public static let notify = Properties(rawValue: 0x10)
        public static let indicate = Properties(rawValue: 0x20)
    }

    public var uuid: BluetoothUUID
    public var declarationHandle: UInt16
    public var valueHandle: UInt16
    public var properties: Properties
    /// The last handle that belongs to this characteristic (its descriptors end there).
    public var endHandle: UInt16
}

public struct GATTDescriptor: Sendable, Hashable {
    public var uuid: BluetoothUUID
    public var handle: UInt16
}

/// Why a GATT operation failed, in one line.
public enum GATTError: Error, Hashable, CustomStringConvertible {
    /// The peer answered with an ATT Error Response.
    case att(request: ATTPDU.Opcode, handle: UInt16, error: ATTErrorCode)
    case timedOut(request: ATTPDU.Opcode, seconds: Double)
    case linkDropped(String)
    /// The peer answered something that is not the answer to the request.
    case unexpectedResponse(request: ATTPDU.Opcode, got: String)
    case notFound(String)

    public var description: String {
        switch self {
        case .att(let request, let handle, let error):
            return "\(request) on handle 0x\(String(handle, radix: 16, uppercase: true)) failed: \(error)"
        case .timedOut(let request, let seconds):
            return "no answer to \(request) within \(Int(seconds)) s (ATT timeout): the node is out of range or hung"
        case .linkDropped(let reason): return "the Bluetooth link dropped: \(reason)"
        case .unexpectedResponse(let request, let got): return "\(request) was answered with \(got)"
        case .notFound(let what): return "the node has no \(what)"
        }
    }
}
