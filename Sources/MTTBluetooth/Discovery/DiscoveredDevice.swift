import MTTCore

/// A device heard advertising during a scan.
public struct DiscoveredDevice: Sendable, Hashable {
    public enum AddressType: UInt8, Sendable, Hashable {
        case bredr = 0
        case lePublic = 1
        case leRandom = 2
    }

    /// `AA:BB:CC:DD:EE:FF`, most significant octet first (as people write it).
    public var address: String
    public var addressType: AddressType
    public var rssi: Int
    public var advertisement: AdvertisingData

    public init(address: String, addressType: AddressType, rssi: Int, advertisement: AdvertisingData) {
        self.address = address
        self.addressType = addressType
        self.rssi = rssi
        self.advertisement = advertisement
    }

    /// A Bluetooth address from its 6 wire bytes (least significant octet first).
    static func address(wire: ArraySlice<UInt8>) -> String {
        wire.reversed().map { Hex.string([$0]) }.joined(separator: ":")
    }
}
