/// The BlueZ kernel management protocol (HCI_CHANNEL_CONTROL, doc/mgmt-api.txt in BlueZ), as far
/// as discovery and the fake node's advertising need it: a 6-byte header (opcode, controller index,
/// length, all LE) and a payload. Talking to the kernel's management channel lets mtt scan while
/// bluetoothd keeps running, and advertise where no bluetoothd runs at all.
enum ManagementPacket {
    static let readControllerIndexList: UInt16 = 0x0003
    static let readControllerInformation: UInt16 = 0x0004
    static let setPowered: UInt16 = 0x0005
    static let setConnectable: UInt16 = 0x0007
    static let setLowEnergy: UInt16 = 0x000D
    static let startDiscovery: UInt16 = 0x0023
    static let stopDiscovery: UInt16 = 0x0024
    static let setBREDR: UInt16 = 0x002A
    static let setStaticAddress: UInt16 = 0x002B
    static let addAdvertising: UInt16 = 0x003E
    static let removeAdvertising: UInt16 = 0x003F

    static let commandComplete: UInt16 = 0x0001
    static let commandStatus: UInt16 = 0x0002
    static let newSettings: UInt16 = 0x0006
    static let deviceFound: UInt16 = 0x0012
    static let discovering: UInt16 = 0x0013
    /// LE public and LE random.
    static let leAddressTypes: UInt8 = 0x06
    /// The controller index of commands that concern no controller (the index list).
    static let noController: UInt16 = 0xFFFF

    static func command(_ opcode: UInt16, controller: UInt16, parameters: [UInt8]) -> [UInt8] {
        let length = UInt16(parameters.count)
        return [UInt8(opcode & 0xFF), UInt8(opcode >> 8), UInt8(controller & 0xFF), UInt8(controller >> 8),
                UInt8(length & 0xFF), UInt8(length >> 8)] + parameters
    }

    enum Event: Equatable {
        case commandComplete(opcode: UInt16, status: UInt8, controller: UInt16, parameters: [UInt8])
        case commandStatus(opcode: UInt16, status: UInt8, controller: UInt16)
        case deviceFound(DiscoveredDevice, controller: UInt16)
        /// Discovery started or ended, by mtt's command or by the kernel (LE discovery ends by
        /// itself after 10.24 s).
        case discovering(Bool, controller: UInt16)
        /// An adapter's current settings changed (powered, connectable, LE…): BluetoothAdapter.Setting bits.
        case newSettings(UInt32, controller: UInt16)
        case other(UInt16)
    }

    /// Nil for a packet too short for what its header says.
    static func event(_ bytes: [UInt8]) -> Event? {
        guard bytes.count >= 6 else { return nil }
        let code = UInt16(bytes[0]) | UInt16(bytes[1]) << 8
        let controller = UInt16(bytes[2]) | UInt16(bytes[3]) << 8
        let length = Int(UInt16(bytes[4]) | UInt16(bytes[5]) << 8)
        guard bytes.count >= 6 + length else { return nil }
        let p = Array(bytes[6..<(6 + length)])
        switch code {
        case commandComplete, commandStatus:
            guard p.count >= 3 else { return nil }
            let opcode = UInt16(p[0]) | UInt16(p[1]) << 8
            return code == commandComplete
                ? .commandComplete(opcode: opcode, status: p[2], controller: controller, parameters: Array(p.dropFirst(3)))
                : .commandStatus(opcode: opcode, status: p[2], controller: controller)
        case deviceFound:
            // address (6), address type (1), RSSI (1, signed), flags (4), EIR length (2), EIR.
            guard p.count >= 14 else { return nil }
            let eirLength = Int(UInt16(p[12]) | UInt16(p[13]) << 8)
            guard p.count >= 14 + eirLength, let type = DiscoveredDevice.AddressType(rawValue: p[6]) else { return nil }
            return .deviceFound(DiscoveredDevice(
                address: DiscoveredDevice.address(wire: p[0..<6]), addressType: type, rssi: Int(Int8(bitPattern: p[7])),
                advertisement: AdvertisingData(bytes: Array(p[14..<(14 + eirLength)]))), controller: controller)
        case newSettings:
            guard p.count >= 4 else { return nil }
            return .newSettings(u32(p[0..<4]), controller: controller)
        case discovering:
            guard p.count >= 2 else { return nil }
            return .discovering(p[1] != 0, controller: controller)
        default:
            return .other(code)
        }
    }

    /// A little-endian 32-bit field (settings bit masks).
    static func u32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// Status codes of the management API, for error messages.
    static func statusText(_ status: UInt8) -> String {
        switch status {
        case 0x00: return "success"
        case 0x01: return "unknown command"
        case 0x03: return "failed"
        case 0x0A: return "busy: another program is scanning or setting up this adapter"
        case 0x0B: return "rejected"
        case 0x0C: return "not supported by this adapter"
        case 0x0D: return "invalid parameters"
        case 0x0F: return "not powered: switch the adapter on (bluetoothctl power on)"
        case 0x11: return "invalid index: no such Bluetooth adapter"
        case 0x14: return "permission denied"
        default: return "status 0x\(String(status, radix: 16))"
        }
    }
}
