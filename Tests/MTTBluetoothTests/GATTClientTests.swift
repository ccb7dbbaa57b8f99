import Foundation
import MTTBluetooth
import MTTCore
import Testing

/// The GATT client against the node emulator over an in-process socket pair.
@Suite("GATT client and the node emulator")
struct GATTClientTests {
    static func connected() async throws -> (GATTClient, NodeEmulator) {
        let (client, server) = try SeqPacketBearer.pair()
        let emulator = NodeEmulator()
        Task { await emulator.serve(server) }
        // The emulator's task waits its turn on the test process's two cooperative threads with
        // every other test's: at the start of a suite beside another, 5 s went by before its
        // first answer. These tests are about the protocol; the timeout has a test of its own.
        let gatt = GATTClient(bearer: client, timeout: 30)
        await gatt.start()
        return (gatt, emulator)
    }

    @Test func discoversTheWholeTable() async throws {
        let (gatt, _) = try await Self.connected()
        #expect(try await gatt.exchangeMTU() == 23)
        let services = try await gatt.discoverPrimaryServices()
        #expect(services.map(\.uuid) == [.short(0x1830), .short(0x1831), .short(0x180F), .short(0x180A)])
        let lora = try await gatt.discoverCharacteristics(of: services[0])
        #expect(lora.map(\.uuid) == [0x2AD0, 0x2AD1, 0x2ADB, 0x2ADA, 0x2AD2, 0x2AD3, 0x2AD4, 0x2AD7, 0x2AD8, 0x2AD9, 0x2AD5].map { BluetoothUUID.short($0) })
        let txResult = try #require(lora.first { $0.uuid == .short(0x2ADA) })
        #expect(txResult.properties == .notify)
        #expect(try await gatt.discoverDescriptors(of: txResult).map(\.uuid) == [.clientCharacteristicConfiguration])
        let info = try await gatt.discoverCharacteristics(of: services[3])
        #expect(String(decoding: try await gatt.read(handle: info[0].valueHandle), as: UTF8.self) == "TheThingsNYC")
        #expect(String(decoding: try await gatt.read(handle: info[1].valueHandle), as: UTF8.self) == "0.1.0")
        await gatt.close()
    }

    @Test func errorResponsesCarryTheirNames() async throws {
        let (gatt, _) = try await Self.connected()
        await #expect {
            try await gatt.read(handle: 0x0777)
        } throws: { error in
            "\(error)" == "readRequest on handle 0x777 failed: Invalid Handle"
        }
        // The TX result characteristic is notify-only.
        let lora = try await gatt.discoverCharacteristics(of: try await gatt.discoverPrimaryServices()[0])
        let txResult = try #require(lora.first { $0.uuid == .short(0x2ADA) })
        await #expect(throws: GATTError.att(request: .readRequest, handle: txResult.valueHandle, error: .readNotPermitted)) {
            try await gatt.read(handle: txResult.valueHandle)
        }
        await gatt.close()
    }

    @Test func notificationsArriveOnceEnabled() async throws {
        let (gatt, emulator) = try await Self.connected()
        let services = try await gatt.discoverPrimaryServices()
        let battery = try #require(try await gatt.discoverCharacteristics(of: services[2]).first)
        await emulator.setBattery(50)  // not enabled yet: nothing comes
        try await gatt.enableNotifications(battery)
        await emulator.setBattery(42)
        var iterator = gatt.notifications.makeAsyncIterator()
        let first = await iterator.next()
        #expect(first == GATTClient.Notification(handle: battery.valueHandle, value: [42]))
        await gatt.close()
    }

    @Test func aPeerThatNeverAnswersTimesOut() async throws {
        let (client, server) = try SeqPacketBearer.pair()
        _ = server.incoming()  // reads and ignores everything
        let gatt = GATTClient(bearer: client, timeout: 0.3)
        await gatt.start()
        await #expect(throws: GATTError.timedOut(request: .exchangeMTURequest, seconds: 0.3)) {
            try await gatt.exchangeMTU()
        }
        server.close()
    }

    @Test func garbageFromThePeerIsCountedAndTheAnswerStillFound() async throws {
        let (client, server) = try SeqPacketBearer.pair()
        let gatt = GATTClient(bearer: client, timeout: 30)
        await gatt.start()
        let requests = server.incoming()
        Task {
            for await _ in requests {
                // (No empty message: on a SEQPACKET socket it reads as the peer closing.)
                for junk in [[0xFF, 1, 2], [0x03], [0x0B, 1], [0x0A, 0x23, 0x00]] as [[UInt8]] {
                    try? server.send(junk)
                }
                try? server.send(ATTPDU.exchangeMTUResponse(mtu: 100).bytes)
            }
        }
        #expect(try await gatt.exchangeMTU(185) == 100)
        // Unknown opcode, truncated, an unasked read response, a request from the peer.
        #expect(await gatt.ignoredPDUs == 4)
        await gatt.close()
        server.close()
    }

    @Test func aDroppedLinkFailsTheRequestWithAClearError() async throws {
        let (gatt, emulator) = try await Self.connected()
        _ = emulator
        let services = try await gatt.discoverPrimaryServices()
        let lora = try await gatt.discoverCharacteristics(of: services[0])
        let command = try #require(lora.first { $0.uuid == MapTheThingsProfile.command })
        // Command 1: the node drops the link; the write's own response may or may not get out first.
        try? await gatt.write(handle: command.valueHandle, value: [1, 0])
        await #expect {
            try await gatt.read(handle: 1)
        } throws: { error in
            guard case GATTError.linkDropped = error else { return false }
            return "\(error)".hasPrefix("the Bluetooth link dropped: ")
        }
    }
}
