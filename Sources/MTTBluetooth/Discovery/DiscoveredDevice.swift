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

    /// The address type a `ble:` spec must name for this device: nil where the address alone
    /// tells it (BLEAddressType.guess).
    public var typeIfNotGuessed: BLEAddressType? {
        bleAddressType == BLEAddressType.guess(address) ? nil : bleAddressType
    }

    /// The address type as a `ble:` spec names it (BR/EDR devices are not nodes; taken as public).
    public var bleAddressType: BLEAddressType {
        addressType == .leRandom ? .random : .public
    }

    /// This report with what an earlier one of the same device said and this one does not: the
    /// name may come in the scan response, the services in the advertisement.
    func merged(with earlier: DiscoveredDevice?) -> DiscoveredDevice {
        guard let earlier else { return self }
        var merged = self
        if merged.advertisement.name == nil { merged.advertisement.name = earlier.advertisement.name }
        if merged.advertisement.serviceUUIDs.isEmpty { merged.advertisement.serviceUUIDs = earlier.advertisement.serviceUUIDs }
        return merged
    }

    /// A Bluetooth address from its 6 wire bytes (least significant octet first).
    static func address(wire: ArraySlice<UInt8>) -> String {
        wire.reversed().map { Hex.string([$0]) }.joined(separator: ":")
    }

    /// The 6 wire bytes of `AA:BB:CC:DD:EE:FF`; nil for anything else.
    static func wire(address: String) -> [UInt8]? {
        let octets = address.split(separator: ":", omittingEmptySubsequences: false)
        guard octets.count == 6 else { return nil }
        let bytes = octets.compactMap { $0.count == 2 ? UInt8($0, radix: 16) : nil }
        return bytes.count == 6 ? bytes.reversed() : nil
    }
}
