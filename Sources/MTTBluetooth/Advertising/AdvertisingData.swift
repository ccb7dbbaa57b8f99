/// A Bluetooth LE advertisement's AD structures (Core spec Supplement Part A): what `mtt scan` and
/// `ble:auto` look at. Malformed structures end parsing; what came before them is kept.
public struct AdvertisingData: Sendable, Hashable {
    public var name: String?
    public var flags: UInt8?
    public var serviceUUIDs: [BluetoothUUID] = []
    /// True when a structure was cut short or had a zero length inside the data.
    public var malformed = false

    public init(bytes: [UInt8]) {
        var i = 0
        while i < bytes.count {
            let length = Int(bytes[i])
            if length == 0 {
                // Zero length is padding only at the end; anything after it is significant data.
                malformed = bytes[(i + 1)...].contains { $0 != 0 }
                return
            }
            guard i + length < bytes.count else {
                malformed = true
                return
            }
            let type = bytes[i + 1]
            // A length of 1 is a type with no data (found by fuzzing: it used to crash the scan).
            let data = length > 1 ? Array(bytes[(i + 2)...(i + length)]) : []
            switch type {
            case 0x01:
                flags = data.first
            case 0x02, 0x03:
                // Incomplete / complete list of 16-bit UUIDs.
                guard data.count % 2 == 0 else {
                    malformed = true
                    return
                }
                for j in stride(from: 0, to: data.count, by: 2) {
                    if let uuid = BluetoothUUID(wire: data[j..<(j + 2)]) { serviceUUIDs.append(uuid) }
                }
            case 0x08, 0x09:
                // Shortened / complete local name; the complete one wins.
                let text = String(decoding: data, as: UTF8.self)
                if type == 0x09 || name == nil { name = text }
            default:
                break
            }
            i += 1 + length
        }
    }

    /// A MapTheThings node: its LoRa service in the list, or its name.
    public var isMapTheThingsNode: Bool {
        serviceUUIDs.contains(MapTheThingsProfile.loraService) || name == "MapTheThings"
    }
}
