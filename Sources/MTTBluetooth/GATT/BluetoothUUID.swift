import MTTCore

/// A Bluetooth UUID: 16-bit on the Bluetooth base UUID, or a full 128-bit one.
/// On the wire both are little-endian.
public enum BluetoothUUID: Sendable, Hashable, CustomStringConvertible {
    case short(UInt16)
    /// The 16 bytes as sent (little-endian).
    case long([UInt8])

    public static let primaryService = BluetoothUUID.short(0x2800)
    public static let characteristic = BluetoothUUID.short(0x2803)
    public static let clientCharacteristicConfiguration = BluetoothUUID.short(0x2902)

    /// 00000000-0000-1000-8000-00805F9B34FB, little-endian.
    private static let base: [UInt8] = [0xFB, 0x34, 0x9B, 0x5F, 0x80, 0x00, 0x00, 0x80, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]

    /// From the wire: 2 or 16 bytes. A 128-bit UUID on the base is folded to its 16-bit form.
    public init?(wire bytes: ArraySlice<UInt8>) {
        let b = Array(bytes)
        switch b.count {
        case 2:
            self = .short(UInt16(b[0]) | UInt16(b[1]) << 8)
        case 16:
            if Array(b[0..<12]) == Array(Self.base[0..<12]) && b[14] == 0 && b[15] == 0 {
                self = .short(UInt16(b[12]) | UInt16(b[13]) << 8)
            } else {
                self = .long(b)
            }
        default:
            return nil
        }
    }

    public var wire: [UInt8] {
        switch self {
        case .short(let value): return [UInt8(value & 0xFF), UInt8(value >> 8)]
        case .long(let bytes): return bytes
        }
    }

    public var description: String {
        switch self {
        case .short(let value): return Hex.string([UInt8(value >> 8), UInt8(value & 0xFF)])
        case .long(let bytes): return Hex.string(bytes.reversed())
        }
    }
}
