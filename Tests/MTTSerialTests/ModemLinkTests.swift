import Foundation
import MTTCore
import MTTSerial
import TestSupport
import Testing

/// Each driver against its emulator over a real pseudo-terminal.
@Suite("Serial modems")
struct ModemLinkTests {
    static let fast = ModemTimeouts(command: 1, transmission: 1.5, join: 2)
    static let payload = LocationPayload(format: .untracked, latitude: 52.0907, longitude: 5.1214).bytes

    static func open(_ kind: ModemKind, joined: Bool = true) async throws -> (ModemEmulator, any ModemLink) {
        let emulator = try ModemEmulator(kind: kind, joined: joined)
        let link = try await ModemLinks.open(SerialNodeSpec(path: emulator.slavePath, modem: kind), timeouts: fast)
        return (emulator, link)
    }

    static func reason(_ result: SendResult) -> String? {
        if case .failed(let reason) = result.outcome { reason } else { nil }
    }

    /// The options a user gives an emulated modem, read as written and refused with the list.
    @Test func anEmulatedModemTakesItsBehaviourFromTheSpec() throws {
        let options = try ModemEmulatorOptions(parsing: "airtime=0.5&busy=0.1&fail=0.2&lose=0.05&deny-joins=2&unplug-after=10&noise", spec: "x")
        #expect(options.airtime == 0.5 && options.busy == 0.1 && options.failures == 0.2 && options.lostResults == 0.05)
        #expect(options.deniedJoins == 2 && options.unplugAfterSends == 10 && options.noise && !options.silent)
        for bad in ["busy=2", "busy=0.6&fail=0.6", "deny-joins=-1", "silent=1", "loss=0.1", "airtime=x"] {
            #expect(throws: SpecError.self, "\(bad)") { try ModemEmulatorOptions(parsing: bad, spec: "fake-rn2483?" + bad) }
        }
        #expect(try Self.node("fake-rui3?fail=0.5").kind.simulatedAs == "emulated modem")
        #expect(throws: SpecError.self) { try Self.node("fake-rui3?fail=5") }
    }

    @Test func anEmulatedModemOfAnUnknownKindIsRefusedWithTheKindsThereAre() throws {
        #expect(throws: SpecError("bad node spec fake-sx1276: the emulated modems are fake-rn2483, fake-rn2903, fake-rui3")) {
            try Self.node("fake-sx1276")
        }
        #expect(throws: SpecError.self) { try Self.node("serial:/dev/ttyUSB0?modem=sx1276") }
        #expect(try Self.node("serial:/dev/ttyUSB0?modem=rn2483").description == "serial:/dev/ttyUSB0?modem=rn2483")
        #expect(try Self.node("fake-rn2903").kind.name == "fake-KIND")
    }

    /// `--node` read through MTTSerial's kinds.
    static func node(_ text: String) throws(SpecError) -> NodeSpec { try NodeSpec(parsing: text, kinds: NodeKind.modems) }

    @Test func theRN2903TakesUS915DataRates() async throws {
        let (_, link) = try await Self.open(.rn2903)
        try await link.setSpreadingFactor(10)
        #expect(try await link.info().spreadingFactor == 10)
        await #expect(throws: NodeError.self) { try await link.setSpreadingFactor(12) }
        await link.close()
    }

    @Test(arguments: ModemKind.allCases)
    func identifies(kind: ModemKind) async throws {
        let (_, link) = try await Self.open(kind)
        let info = try await link.info()
        // What each model says of itself, and the spreading factor it starts with.
        let expected: [ModemKind: (model: String, sf: Int)] = [.rn2483: ("RN2483 1.0.5", 7), .rn2903: ("RN2903 1.0.5", 7), .rui3: ("RUI3 4.0.6", 12)]
        #expect(info.model.hasPrefix(try #require(expected[kind]).model))
        #expect(info.devEUI?.count == 16 && info.isJoined)
        #expect(info.devAddr != "00000000")
        #expect(info.spreadingFactor == expected[kind]?.sf)
        await link.close()
    }

    @Test(arguments: ModemKind.allCases)
    func refusesToSendBeforeAJoinThenJoinsAndSends50WithTheirFrameCounters(kind: ModemKind) async throws {
        let (emulator, link) = try await Self.open(kind, joined: false)
        await #expect(throws: NodeError.notJoined(node: link.name)) { try await link.send(Self.payload) }
        #expect(emulator.transmissions.isEmpty)

        try await link.provisionOTAA(devEUI: "0004A30B001C0530", joinEUI: "70B3D57ED0000000", appKey: "2B7E151628AED2A6ABF7158809CF4F3C")
        #expect(try await link.joinOTAA())
        #expect(try await link.info().isJoined)

        var counters: [UInt32?] = []
        for _ in 0..<50 {
            let result = try await link.send(Self.payload)
            guard case .confirmed(let counter) = result.outcome else {
                Issue.record("send failed: \(result)")
                break
            }
            counters.append(counter)
        }
        #expect(counters == emulator.transmissions.map(\.frameCounter))
        #expect(counters == (0..<50).map { UInt32($0) })
        #expect(emulator.transmissions.allSatisfy { $0.payload == Self.payload })
        await link.close()
    }

    @Test(arguments: ModemKind.allCases)
    func busyAndRadioErrorsAreFailedAttempts(kind: ModemKind) async throws {
        let (emulator, link) = try await Self.open(kind)
        emulator.configure { $0.busy = 1 }
        let busy = try await link.send(Self.payload)
        emulator.configure { $0.busy = 0; $0.failures = 1 }
        let radio = try await link.send(Self.payload)
        emulator.configure { $0.failures = 0 }
        let fine = try await link.send(Self.payload)
        #expect(Self.reason(busy)?.contains("busy") == true, "\(busy)")
        #expect(Self.reason(radio) != nil, "\(radio)")
        #expect(Self.reason(fine) == nil)
        #expect(emulator.transmissions.count == 1)
        #expect([busy.sequence, radio.sequence, fine.sequence] == [1, 2, 3])
        await link.close()
    }

    @Test(arguments: ModemKind.allCases)
    func aModemThatGoesSilentIsReportedWithinTheTimeout(kind: ModemKind) async throws {
        let (emulator, link) = try await Self.open(kind)
        _ = try await link.info()
        emulator.configure { $0.lostResults = 1 }
        let started = ContinuousClock.now
        let noResult = try await link.send(Self.payload)
        // The waits are the configured ones, not the defaults (25 s for a result, 3 s a command):
        // each reason names the wait it gave up after.
        #expect(Self.reason(noResult)?.contains("stopped answering") == true, "\(noResult)")
        #expect(Self.reason(noResult)?.contains("within \(Self.fast.transmission.plainText) s") == true, "\(noResult)")

        // Silent from the next command on: RN2483's counter query or RUI3's AT+SEND gets no answer.
        emulator.configure { $0.silent = true }
        do {
            let silent = try await link.send(Self.payload)
            #expect(Self.reason(silent)?.contains("did not answer") == true, "\(silent)")
            #expect(Self.reason(silent)?.contains("within \(Self.fast.command.plainText) s") == true, "\(silent)")
        } catch let error as NodeError {
            guard case .noAnswer(_, _, let seconds) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(seconds == Self.fast.command)
        }
        await #expect {
            try await link.info()
        } throws: { error in
            if case NodeError.noAnswer(_, _, let seconds) = error { seconds == Self.fast.command } else { false }
        }
        // At least the three waits went by (beside two suites they took up to 30 s in all: the
        // time says nothing more, the reasons above say which waits they were).
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .seconds(Self.fast.transmission + 2 * Self.fast.command), "\(elapsed)")
        await link.close()
    }

    @Test(arguments: ModemKind.allCases)
    func noiseOnTheLineIsIgnored(kind: ModemKind) async throws {
        let (emulator, link) = try await Self.open(kind)
        emulator.configure { $0.noise = true }
        #expect(try await link.info().isJoined)
        for _ in 0..<5 {
            let result = try await link.send(Self.payload)
            #expect(Self.reason(result) == nil, "\(result)")
        }
        #expect(emulator.transmissions.count == 5)
        await link.close()
    }

    @Test(arguments: ModemKind.allCases)
    func unpluggingMidSendFailsTheAttemptAndSaysSo(kind: ModemKind) async throws {
        let (emulator, link) = try await Self.open(kind)
        _ = try await link.info()
        emulator.configure { $0.unplugAfterSends = 0 }
        let result = try await link.send(Self.payload)
        #expect(Self.reason(result)?.contains("unplugged") == true, "\(result)")
        await #expect {
            try await link.send(Self.payload)
        } throws: { error in
            guard case NodeError.disconnected(_, let reason) = error else { return false }
            return reason.contains("unplugged")
        }
        await link.close()
    }

    /// Unplugged while its radio is on the air: the reply it still has to give must go nowhere.
    /// (Its descriptor's number, closed, went to the next socket this process opened, and the test
    /// suite's HTTP server sent "mac_tx_ok" to an upload as its answer.)
    @Test func anUnpluggedModemsLateReplyReachesNoOtherConnection() async throws {
        let (emulator, link) = try await Self.open(.rn2483)
        _ = try await link.info()
        emulator.configure { $0.airtime = 0.4 }
        let send = Task { try? await link.send(Self.payload) }
        #expect(await eventually(timeout: 5) { emulator.transmissions.count == 1 })
        emulator.unplug()
        // Sockets opened right after: the kernel hands out the lowest free numbers.
        var sockets: [Int32] = []
        for _ in 0..<16 {
            var pair: [Int32] = [0, 0]
            if socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0 { sockets += pair }
        }
        defer { sockets.forEach { close($0) } }
        // Each socket stays silent for the 800 ms the emulator's writer had to misuse a number.
        _ = await throughout(0.8) {
            for fd in sockets {
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 0) > 0 else { continue }
                var buffer = [UInt8](repeating: 0, count: 256)
                let n = read(fd, &buffer, buffer.count)
                Issue.record("a socket opened after the unplug received \(String(decoding: buffer.prefix(max(0, n)), as: UTF8.self).debugDescription)")
                return false
            }
            return true
        }
        _ = await send.value
        await link.close()
    }

    @Test func rn2483ABPSessionFromConsoleKeys() async throws {
        let emulator = try ModemEmulator(kind: .rn2483, joined: false)
        let link = try await RN2483Link(spec: SerialNodeSpec(path: emulator.slavePath, modem: .rn2483), timeouts: Self.fast)
        #expect(try await link.joinABP(devAddr: "260B1234", nwkSKey: "2B7E151628AED2A6ABF7158809CF4F3C", appSKey: "000102030405060708090A0B0C0D0E0F"))
        let info = try await link.info()
        #expect(info.isJoined && info.devAddr == "260B1234")
        await #expect(throws: SpecError.self) { try await link.joinABP(devAddr: "26", nwkSKey: "00", appSKey: "00") }
        #expect(try await link.send(Self.payload).outcome == .confirmed(frameCounter: 0))
        await link.close()
    }

    @Test func specs() throws {
        #expect(try SerialNodeSpec(parsing: "serial:/dev/ttyUSB0?modem=rn2483") == SerialNodeSpec(path: "/dev/ttyUSB0", modem: .rn2483, baud: 57_600))
        #expect(try SerialNodeSpec(parsing: "serial:/dev/ttyACM1?modem=rui3&baud=9600") == SerialNodeSpec(path: "/dev/ttyACM1", modem: .rui3, baud: 9600))
        #expect(try SerialNodeSpec(parsing: "serial:/dev/ttyUSB0?baud=57600&modem=rui3").baud == 57_600)
        for bad in ["serial:/dev/ttyUSB0", "serial:ttyUSB0?modem=rn2483", "serial:/dev/x?modem=sx1276", "serial:/dev/x?modem=rn2483&baud=1234", "serial:/dev/x?modem=rn2483&parity=even"] {
            #expect(throws: SpecError.self) { try SerialNodeSpec(parsing: bad) }
        }
    }

    @Test func missingDeviceIsAClearError() async {
        await #expect {
            try await ModemLinks.open(SerialNodeSpec(path: "/dev/ttyUSB99", modem: .rn2483))
        } throws: { error in
            "\(error)" == "cannot open /dev/ttyUSB99: No such file or directory"
        }
    }
}
