import Foundation
import MTTBluetooth
import MTTCore
import TestSupport
import Testing

@Suite("MapTheThings node driver")
struct MapTheThingsNodeTests {
    static let payload = LocationPayload(format: .tracked, latitude: 40.6714, longitude: -73.9863).bytes

    @Test func infoReadsTheNodesIdentity() async throws {
        let fake = try await EmulatedNode.start()
        let info = try await fake.node.info()
        #expect(info.model == "MapTheThings 0.1.0")
        #expect(info.devEUI == "0004A30B001C0501")  // stored LSB first, shown as the console does
        #expect(info.devAddr == "260B1234" && info.isJoined)
        #expect(info.spreadingFactor == 10 && info.battery == 87)
        await fake.node.close()
    }

    /// Also: send 1's timer must be gone when ble_seq comes round to 1 again, and must not end send
    /// 256's wait (CI once saw send 256 fail this way, its result arriving later). Node and emulator
    /// run on a manual clock, so send 256's wait spans the moment send 1's timer was due, whatever the
    /// machine's load.
    @Test func threeHundredTrackedSendsWrapBLESequencePast255() async throws {
        let clock = ManualClock()
        let timeout = 25.0
        let fake = try await EmulatedNode.start(sendTimeout: timeout, clock: clock)
        var results: [SendResult] = []
        for n in 1...300 {
            // Send 256 (ble_seq 1 again) is on the air 3 s from 1 s before send 1's timer was due.
            let airtime = n == 256 ? 3 : 0.001
            if n == 256 { clock.advance(by: timeout - 1) }
            await fake.emulator.configure { $0.airtime = airtime }
            let send = Task { try await fake.node.send(Self.payload) }
            // Only its own timer and its airtime: a timer left by an earlier send would show here.
            try #require(await eventually { clock.secondsToDeadlines == [airtime, timeout] }, "send \(n) waits alone")
            clock.advance(by: airtime)
            results.append(try await send.value)
        }
        let sequences = results.compactMap(\.sequence)
        #expect(sequences == Array(1...255) + Array(1...45))
        let counters: [UInt32?] = results.map { if case .confirmed(let c) = $0.outcome { c } else { nil } }
        #expect(counters == (0..<300).map { UInt32($0) })
        let sent = await fake.emulator.transmissions
        #expect(sent.count == 300)
        #expect(sent.map(\.bleSequence) == sequences.map { UInt8($0) })
        #expect(sent.allSatisfy { $0.payload == Self.payload })
        await fake.node.close()
    }

    @Test func aSendDroppedByTheBusyNodeIsAFailedAttempt() async throws {
        // A node slower on the air than mtt waits (airtime 30 s, timeout 2 s): the first send is
        // given up while its radio is still busy, so the node drops the second without a word. The
        // node's timer and the emulator's airtime run on one manual clock, so they race only when the
        // test moves time (on the wall clock a loaded machine once fired the last send's 2 s timer
        // before its 0.05 s airtime ended).
        let clock = ManualClock()
        let fake = try await EmulatedNode.start(sendTimeout: 2, clock: clock)
        await fake.emulator.configure { $0.airtime = 30 }
        let first = Task { try await fake.node.send(Self.payload) }
        try #require(await eventually { clock.secondsToDeadlines == [2, 30] }, "the first send waits, on the air")
        clock.advance(by: 2)
        let givenUp = try await first.value
        #expect(givenUp.outcome == .failed(reason: "no TX result within 2 s (the node reports only successes)"))
        let second = Task { try await fake.node.send(Self.payload) }
        try #require(await eventually { clock.secondsToDeadlines == [2, 28] }, "the second send waits, the first still on the air")
        clock.advance(by: 2)
        let dropped = try await second.value
        guard case .failed(let reason) = dropped.outcome else {
            Issue.record("expected a failure, got \(dropped)")
            return
        }
        #expect(reason == "no TX result within 2 s (the node reports only successes)")
        #expect(await fake.emulator.droppedSends == 1)
        // The first transmission's late result (ble_seq 1) must not settle a later send.
        clock.advance(by: 26)
        #expect(await eventually { await fake.emulator.transmissions.count == 1 }, "the first transmission ends")
        await fake.emulator.configure { $0.airtime = 0.05 }
        // The next one goes through, with the next ble_seq.
        let third = Task { try await fake.node.send(Self.payload) }
        try #require(await eventually { clock.secondsToDeadlines == [0.05, 2] }, "the third send waits, on the air")
        clock.advance(by: 0.05)
        let next = try await third.value
        #expect(next.sequence == 3 && next.outcome == .confirmed(frameCounter: 1))
        await fake.node.close()
    }

    /// A node with no airtime sends its TX result right behind the write's answer, as a real
    /// node's reaches a machine that stalled longer than the airtime: read from the link in one
    /// go, the result can come before the send waits for it, and must not be lost (CI saw one such
    /// send of twenty time out beside a second suite).
    @Test func aResultBeforeItsSendWaitsIsNotLost() async throws {
        let fake = try await EmulatedNode.start(sendTimeout: 10)
        await fake.emulator.configure { $0.airtime = 0 }
        var counters: [UInt32?] = []
        for _ in 0..<100 {
            let result = try await fake.node.send(Self.payload)
            let counter: UInt32? = if case .confirmed(let c) = result.outcome { c } else { nil }
            counters.append(counter)
        }
        #expect(counters == (0..<100).map { UInt32($0) })
        await fake.node.close()
    }

    @Test func aResultThatNeverComesIsAFailedAttempt() async throws {
        let fake = try await EmulatedNode.start(sendTimeout: 0.4)
        await fake.emulator.configure { $0.failures = 1 }
        let result = try await fake.node.send(Self.payload)
        #expect(result.outcome == .failed(reason: "no TX result within 0.4 s (the node reports only successes)"))
        // A send that failed never went on air: no gateway can hear it.
        #expect(await fake.emulator.transmissions.isEmpty)
        await fake.node.close()
    }

    @Test func refusesToSendBeforeTheNodeHasJoined() async throws {
        let fake = try await EmulatedNode.start(joined: false)
        await #expect(throws: NodeError.notJoined(node: "fake:1")) { try await fake.node.send(Self.payload) }
        #expect(await fake.emulator.transmissions.isEmpty)
        #expect(await !fake.emulator.isWedged)
        await fake.node.close()
    }

    @Test func provisioningWritesTheEUIsReversedThenJoins() async throws {
        let fake = try await EmulatedNode.start(joined: false)
        let joined = try await fake.node.provisionOTAA(devEUI: "0004A30B001C0530", joinEUI: "70B3D57ED0000123", appKey: "2B7E151628AED2A6ABF7158809CF4F3C", timeout: 5)
        #expect(joined)
        #expect(await fake.emulator.storedValue(MapTheThingsProfile.devEUI) == Hex.bytes("30051C000BA30400"))
        #expect(await fake.emulator.storedValue(MapTheThingsProfile.appEUI) == Hex.bytes("230100D07ED5B370"))
        #expect(await fake.emulator.storedValue(MapTheThingsProfile.appKey) == Hex.bytes("2B7E151628AED2A6ABF7158809CF4F3C"))
        let info = try await fake.node.info()
        #expect(info.isJoined && info.devEUI == "0004A30B001C0530" && info.spreadingFactor == 10)
        #expect(try await fake.node.send(Self.payload).outcome == .confirmed(frameCounter: 0))
        await fake.node.close()
    }

    @Test func spreadingFactorIsWrittenAndReadBack() async throws {
        let fake = try await EmulatedNode.start()
        try await fake.node.setSpreadingFactor(7)
        #expect(try await fake.node.info().spreadingFactor == 7)
        await #expect(throws: NodeError.self) { try await fake.node.setSpreadingFactor(12) }
        await fake.node.close()
    }

    @Test func logLinesAreReassembledFromTwentyByteChunks() async throws {
        let fake = try await EmulatedNode.start()
        let line = "EV_TXCOMPLETE (includes waiting for RX windows) seq=17"
        await fake.emulator.log(line)
        await fake.emulator.log("short")
        var lines = fake.node.logLines.makeAsyncIterator()
        #expect(await lines.next() == line)
        #expect(await lines.next() == "short")
        await fake.node.close()
    }

    @Test func batteryNotificationsUpdateTheLevel() async throws {
        let fake = try await EmulatedNode.start()
        await fake.emulator.setBattery(64)
        await eventually { await fake.node.batteryLevel == 64 }
        #expect(await fake.node.batteryLevel == 64)
        await fake.node.close()
    }

    @Test func aDroppedLinkMakesSendsThrow() async throws {
        let fake = try await EmulatedNode.start()
        try await fake.node.disconnect()
        await #expect(throws: (any Error).self) { try await fake.node.send(Self.payload) }
    }
}
