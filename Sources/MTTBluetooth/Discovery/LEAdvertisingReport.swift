/// HCI LE Advertising Report events (Core spec Vol 4 Part E 7.7.65.2), read from a raw HCI socket
/// when the management channel is not allowed: `04 3E len 02 num {type addrtype addr(6) len data rssi}…`.
enum LEAdvertisingReport {
    static func devices(_ packet: [UInt8]) -> [DiscoveredDevice] {
        guard packet.count >= 5, packet[0] == 0x04, packet[1] == 0x3E, packet[3] == 0x02 else { return [] }
        let count = Int(packet[4])
        var devices: [DiscoveredDevice] = []
        var i = 5
        for _ in 0..<count {
            guard i + 9 <= packet.count else { break }
            let addressType: DiscoveredDevice.AddressType = packet[i + 1] & 0x01 == 1 ? .leRandom : .lePublic
            let address = DiscoveredDevice.address(wire: packet[(i + 2)..<(i + 8)])
            let length = Int(packet[i + 8])
            guard i + 9 + length + 1 <= packet.count else { break }
            let data = Array(packet[(i + 9)..<(i + 9 + length)])
            let rssi = Int(Int8(bitPattern: packet[i + 9 + length]))
            devices.append(DiscoveredDevice(address: address, addressType: addressType, rssi: rssi, advertisement: AdvertisingData(bytes: data)))
            i += 10 + length
        }
        return devices
    }
}
