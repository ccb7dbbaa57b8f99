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

    /// The AD structures a peripheral advertises: its 16-bit services, then its complete name,
    /// shortened where the 31 bytes of an advertisement would not hold it (the kernel adds the
    /// Flags structure, 3 bytes, before these).
    public static func encode(name: String, services: [BluetoothUUID]) -> [UInt8] {
        let shorts = services.filter { if case .short = $0 { true } else { false } }.flatMap(\.wire)
        var data: [UInt8] = shorts.isEmpty ? [] : [UInt8(shorts.count + 1), 0x03] + shorts
        let room = 31 - 3 - data.count - 2
        let bytes = Array(name.utf8)
        if room > 0, !bytes.isEmpty {
            let fits = bytes.count <= room
            data += [UInt8(min(bytes.count, room) + 1), fits ? 0x09 : 0x08] + bytes.prefix(room)
        }
        return data
    }

    /// A MapTheThings node: its LoRa service in the list, or its name.
    public var isMapTheThingsNode: Bool {
        serviceUUIDs.contains(MapTheThingsProfile.loraService) || name == MapTheThingsProfile.advertisedName
    }
}
