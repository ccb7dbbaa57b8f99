/// How a Bluetooth LE device's address is to be read: the public address of its adapter, or a
/// random static one it chose.
public enum BLEAddressType: String, Sendable, Hashable {
    case `public`
    case random

    /// The type an address is taken to be when nobody says: random static addresses have their two
    /// top bits set.
    public static func guess(_ address: String) -> BLEAddressType {
        guard let first = address.split(separator: ":").first, let octet = UInt8(first, radix: 16) else { return .public }
        return octet >= 0xC0 ? .random : .public
    }
}
