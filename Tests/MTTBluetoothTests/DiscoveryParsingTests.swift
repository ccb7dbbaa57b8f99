@testable import MTTBluetooth
import MTTCore
import Testing

@Suite("Discovery packets")
struct DiscoveryParsingTests {
    /// mgmt Device Found (BlueZ doc/mgmt-api.txt): header 12 00 | 00 00 | len, then address (LSB first),
    /// type 02 (LE random), RSSI -67 (0xBD), flags 0, EIR length, EIR.
    @Test func managementDeviceFound() throws {
        let eir = Hex.bytes("020106050330183118")! + [13, 0x09] + Array("MapTheThings".utf8)
        // C1:11:22:33:44:55 goes on the wire least significant octet first.
        let params = Hex.bytes("5544332211C1")! + [0x02, 0xBD, 0, 0, 0, 0, UInt8(eir.count), 0] + eir
        let packet = Hex.bytes("12000000")! + [UInt8(params.count), 0] + params
        guard case .deviceFound(let device, controller: 0)? = ManagementPacket.event(packet) else {
            Issue.record("not parsed as Device Found")
            return
        }
        #expect(device.address == "C1:11:22:33:44:55" && device.addressType == .leRandom && device.rssi == -67)
        #expect(device.advertisement.isMapTheThingsNode && device.advertisement.name == "MapTheThings")
    }

    @Test func managementCommandAnswersAndShortPackets() {
        #expect(ManagementPacket.event(Hex.bytes("0200000003002300 0F".replacingOccurrences(of: " ", with: ""))!) == .commandStatus(opcode: 0x23, status: 0x0F, controller: 0))
        #expect(ManagementPacket.event(Hex.bytes("120000000A0001")!) == nil)
        #expect(ManagementPacket.event([0x12]) == nil)
        #expect(ManagementPacket.command(0x23, controller: 0, parameters: [6]) == Hex.bytes("2300000001 0006".replacingOccurrences(of: " ", with: ""))!)
        #expect(ManagementPacket.statusText(0x0F).hasPrefix("not powered"))
    }

    /// Read Controller Index List's answer (Command Complete 0x0001 for opcode 0x0003), an
    /// adapter's New Settings (0x0006) and Discovering (0x0013), from doc/mgmt-api.txt.
    @Test func managementAnswersSettingsAndDiscovering() {
        // Two controllers, 1 and 0, as the kernel lists them (newest first).
        #expect(ManagementPacket.event(Hex.bytes("0100FFFF0900030000020001000000")!)
                == .commandComplete(opcode: 0x0003, status: 0, controller: 0xFFFF, parameters: [2, 0, 1, 0, 0, 0]))
        // hci1: powered (bit 0), connectable (1), LE (9).
        #expect(ManagementPacket.event(Hex.bytes("06000100040003020000")!) == .newSettings(0x0203, controller: 1))
        #expect(ManagementPacket.event(Hex.bytes("130000000200" + "0600")!) == .discovering(false, controller: 0))
        #expect(ManagementPacket.event(Hex.bytes("130000000200" + "0601")!) == .discovering(true, controller: 0))
        #expect(ManagementPacket.event(Hex.bytes("1300000001000600")!) == nil)
    }

    /// What `mtt fake-node --listen ble:` advertises reads back as a MapTheThings node, and a name
    /// too long for the 31 bytes is shortened (type 0x08) instead of overflowing.
    @Test func theFakeNodesAdvertisementReadsBack() {
        let data = AdvertisingData.encode(name: "MapTheThings", services: [MapTheThingsProfile.loraService])
        #expect(data == [3, 0x03, 0x30, 0x18, 13, 0x09] + Array("MapTheThings".utf8))
        let read = AdvertisingData(bytes: data)
        #expect(read.isMapTheThingsNode && read.name == "MapTheThings" && read.serviceUUIDs == [MapTheThingsProfile.loraService] && !read.malformed)
        let long = AdvertisingData.encode(name: String(repeating: "x", count: 40), services: [MapTheThingsProfile.loraService])
        #expect(long.count == 28 && long[5] == 0x08 && !AdvertisingData(bytes: long).malformed)
    }

    @Test func addressesGoOnTheWireLeastSignificantOctetFirst() {
        #expect(DiscoveredDevice.wire(address: "C0:11:22:33:44:55") == [0x55, 0x44, 0x33, 0x22, 0x11, 0xC0])
        #expect(DiscoveredDevice.wire(address: "C0:11:22:33:44") == nil)
        #expect(DiscoveredDevice.wire(address: "C0:11:22:33:44:GG") == nil)
        #expect(DiscoveredDevice.address(wire: [0x55, 0x44, 0x33, 0x22, 0x11, 0xC0]) == "C0:11:22:33:44:55")
    }

    /// HCI LE Advertising Report: 04 3E len 02 01 | type 00, addr type 01 (random), address, data len, data, RSSI.
    @Test func rawLEAdvertisingReport() {
        let data = Hex.bytes("0201060303301 8".replacingOccurrences(of: " ", with: ""))!
        let report: [UInt8] = [0x02, 0x01, 0x00, 0x01] + Hex.bytes("665544332211")! + [UInt8(data.count)] + data + [0xC4]
        let packet: [UInt8] = [0x04, 0x3E, UInt8(report.count)] + report
        let devices = LEAdvertisingReport.devices(packet)
        #expect(devices.count == 1)
        #expect(devices.first?.address == "11:22:33:44:55:66" && devices.first?.addressType == .leRandom)
        #expect(devices.first?.rssi == -60 && devices.first?.advertisement.isMapTheThingsNode == true)
        #expect(LEAdvertisingReport.devices(Array(packet.prefix(10))).isEmpty)
        #expect(LEAdvertisingReport.devices([0x04, 0x0E, 0x04]).isEmpty)
    }
}
