import MTTCore

extension ModemKind {
    public static let rn2483 = ModemKind(
        name: "rn2483", help: "Microchip RN2483 (EU868)", defaultBaud: 57_600,
        open: { spec, timeouts in try await RN2483Link(spec: spec, timeouts: timeouts) },
        personality: { joined, holdsKeys in RN2483Personality(joined: joined, holdsKeys: holdsKeys) })
}

/// A Microchip RN2483 (EU868) or RN2903 (US915) driven with its LoRaWAN command set
/// (57600 baud, CR LF line ends).
public actor RN2483Link: NodeLink {
    public nonisolated let name: String
    private let conversation: LineConversation
    private let timeouts: ModemTimeouts
    private var joined: Bool?
    private var model: String?
    private var sends = 0
    private var gone: String?
    /// `mac set linkchk` was given on this link since its last join.
    private var checkingLinks = false

    /// The first answers to `mac tx`; anything else on the line is skipped.
    private static let txAnswers: Set<String> = [
        "ok", "busy", "not_joined", "no_free_ch", "invalid_param", "silent", "frame_counter_err_rejoin_needed",
        "mac_paused", "invalid_data_len", "keys_not_init",
    ]

    public init(spec: SerialNodeSpec, timeouts: ModemTimeouts = ModemTimeouts()) async throws(SerialPortError) {
        name = spec.description
        self.timeouts = timeouts
        conversation = try await LineConversation.open(spec)
    }

    public func info() async throws -> NodeInfo {
        let version = try await ask("sys get ver") { $0.hasPrefix("RN2") }
        model = version
        let devEUI = try await ask("mac get deveui", hexDigits: 16)
        let devAddr = try await ask("mac get devaddr", hexDigits: 8)
        let dr = try await ask("mac get dr") { Int($0) != nil }
        let status = try await ask("mac get status") { UInt32($0, radix: 16) != nil }
        // Bit 0 of the MAC status is the join state.
        let isJoined = (UInt32(status, radix: 16) ?? 0) & 1 == 1
        joined = isJoined
        return NodeInfo(
            model: version.split(separator: " ").prefix(2).joined(separator: " "), devEUI: devEUI.uppercased(),
            devAddr: devAddr.uppercased(), spreadingFactor: Int(dr).flatMap(plan.spreadingFactor(dataRate:)), isJoined: isJoined)
    }

    public func send(_ payload: [UInt8]) async throws -> SendResult {
        try await send(payload, checkingLink: false)
    }

    public func send(_ payload: [UInt8], checkingLink: Bool) async throws -> SendResult {
        if let gone { throw NodeError.disconnected(node: name, reason: gone) }
        if joined == nil { _ = try await info() }
        guard joined == true else { throw NodeError.notJoined(node: name) }
        if checkingLink && !checkingLinks {
            // Every uplink sent more than a second after the one before carries a LinkCheckReq.
            try await expectOK("mac set linkchk 1")
            checkingLinks = true
        }
        // The counter the next uplink will carry: read before the send, as the modem does not report it after.
        let counter = try await ask("mac get upctr") { UInt32($0) != nil }
        // The answer comes in a downlink, and only a downlink moves this counter (SPEC §10.3).
        let downlinksBefore = checkingLink ? try await ask("mac get dnctr") { UInt32($0) != nil } : nil
        sends += 1
        let sequence = sends
        await conversation.discardPending()
        do {
            try await conversation.send("mac tx uncnf 1 \(Hex.string(payload))", timeout: timeouts.command)
        } catch {
            return failed(sequence, disconnecting: error.description)
        }
        switch await conversation.next(timeout: timeouts.command, accepting: Self.txAnswers.contains) {
        case .line("ok"):
            break
        case .line("not_joined"):
            joined = false
            throw NodeError.notJoined(node: name)
        case .line("busy"):
            return SendResult(sequence: sequence, outcome: .failed(reason: "the modem was busy with an earlier transmission (busy)"))
        case .line("no_free_ch"):
            return SendResult(sequence: sequence, outcome: .failed(reason: "no free channel: the duty-cycle limit is reached (no_free_ch)"))
        case .line("frame_counter_err_rejoin_needed"):
            return SendResult(sequence: sequence, outcome: .failed(reason: "the frame counter ran out: the modem must rejoin"))
        case .line(let other):
            return SendResult(sequence: sequence, outcome: .failed(reason: "the modem refused the send (\(other))"))
        case .timedOut:
            return SendResult(sequence: sequence, outcome: .failed(reason: "the modem did not answer mac tx within \(timeouts.command.plainText) s"))
        case .closed(let reason):
            return failed(sequence, disconnecting: reason)
        }
        let result = await conversation.next(timeout: timeouts.transmission) { line in
            line == "mac_tx_ok" || line == "mac_err" || line == "invalid_data_len" || line.hasPrefix("mac_rx ")
        }
        switch result {
        case .line("mac_err"):
            return SendResult(sequence: sequence, outcome: .failed(reason: "the modem could not transmit (mac_err)"))
        case .line("invalid_data_len"):
            return SendResult(sequence: sequence, outcome: .failed(reason: "the payload is too long for this data rate (invalid_data_len)"))
        case .line:
            // mac_tx_ok, or mac_rx with a downlink: either way the uplink went out.
            let linkCheck = if let downlinksBefore { await linkCheckAnswer(downlinksBefore: downlinksBefore) } else { LinkCheck?.none }
            return SendResult(sequence: sequence, outcome: .confirmed(frameCounter: UInt32(counter)), linkCheck: linkCheck)
        case .timedOut:
            return SendResult(sequence: sequence, outcome: .failed(reason: "no transmission result within \(timeouts.transmission.plainText) s: the modem stopped answering"))
        case .closed(let reason):
            return failed(sequence, disconnecting: reason)
        }
    }

    /// What the link check sent with the last uplink answered. The modem keeps the last answer's
    /// margin and gateway count and announces none: an unchanged downlink counter means no
    /// downlink came, so no answer. Nil when the modem could not be asked: not known either way.
    private func linkCheckAnswer(downlinksBefore: String) async -> LinkCheck? {
        guard let downlinks = try? await ask("mac get dnctr", accepts: { UInt32($0) != nil }) else { return nil }
        guard downlinks != downlinksBefore else { return .unanswered }
        guard let margin = try? await ask("mac get mrgn", accepts: { UInt8($0) != nil }),
              let gateways = try? await ask("mac get gwnb", accepts: { UInt8($0) != nil })
        else { return nil }
        // A downlink that carried no LinkCheckAns (an application's) leaves 255 before any answer.
        return LinkCheck(gateways: Int(gateways) ?? 0, margin: Int(margin) ?? 255) ?? .unanswered
    }

    public func setSpreadingFactor(_ sf: Int) async throws {
        // The data rate that gives an SF depends on the region, which the model tells: an RN2903
        // told SF10 with EU868's numbers would go out at SF8.
        if model == nil { model = try await ask("sys get ver") { $0.hasPrefix("RN2") } }
        try await expectOK("mac set dr \(try plan.dataRate(spreadingFactor: sf, node: name))")
    }

    /// One OTAA join-request with the keys the modem holds.
    public func join() async throws -> Bool {
        try await joinOTAA()
    }

    /// `mac join otaa`: true when the network accepted.
    public func joinOTAA() async throws -> Bool {
        try await expectOK("mac join otaa")
        let accepted = try await conversation.joinOutcome(
            node: name, command: "mac join otaa", timeout: timeouts.join,
            isOutcome: { $0 == "accepted" || $0 == "denied" }, isAccepted: { $0 == "accepted" })
        joined = accepted
        // A new session: the link checks are asked for again.
        checkingLinks = false
        return accepted
    }

    /// OTAA keys as the TTN console shows them (MSB first, which is also what the RN2483 takes).
    public func provisionOTAA(devEUI: String, joinEUI: String, appKey: String) async throws {
        try await expectOK("mac set deveui \(try ConsoleKey.hex(devEUI, bytes: 8, "DevEUI"))")
        try await expectOK("mac set appeui \(try ConsoleKey.hex(joinEUI, bytes: 8, "JoinEUI"))")
        try await expectOK("mac set appkey \(try ConsoleKey.hex(appKey, bytes: 16, "AppKey"))")
        try await expectOK("mac save")
    }

    /// An ABP session from console-order keys: `mac set devaddr/nwkskey/appskey`, then `mac join abp`.
    public func joinABP(devAddr: String, nwkSKey: String, appSKey: String) async throws -> Bool {
        try await expectOK("mac set devaddr \(try ConsoleKey.hex(devAddr, bytes: 4, "DevAddr"))")
        try await expectOK("mac set nwkskey \(try ConsoleKey.hex(nwkSKey, bytes: 16, "NwkSKey"))")
        try await expectOK("mac set appskey \(try ConsoleKey.hex(appSKey, bytes: 16, "AppSKey"))")
        try await expectOK("mac save")
        try await expectOK("mac join abp")
        let accepted = try await conversation.joinOutcome(
            node: name, command: "mac join abp", timeout: timeouts.join,
            isOutcome: { $0 == "accepted" || $0 == "denied" }, isAccepted: { $0 == "accepted" })
        joined = accepted
        // A new session: the link checks are asked for again.
        checkingLinks = false
        return accepted
    }

    public func close() async {
        await conversation.close()
    }

    private func failed(_ sequence: Int, disconnecting reason: String) -> SendResult {
        gone = reason
        return SendResult(sequence: sequence, outcome: .failed(reason: reason))
    }

    /// The RN2903 is the US915 model.
    private var plan: DataRatePlan { (model ?? "").hasPrefix("RN2903") ? .us915 : .eu868 }

    private func ask(_ command: String, hexDigits: Int) async throws -> String {
        try await ask(command) { $0.count == hexDigits && Hex.bytes($0) != nil }
    }

    /// Sends a query and returns the first answer `accepts` takes; an error word is a refusal.
    private func ask(_ command: String, accepts: @escaping @Sendable (String) -> Bool) async throws -> String {
        if let gone { throw NodeError.disconnected(node: name, reason: gone) }
        await conversation.discardPending()
        do {
            try await conversation.send(command, timeout: timeouts.command)
        } catch {
            gone = error.description
            throw NodeError.disconnected(node: name, reason: error.description)
        }
        switch await conversation.next(timeout: timeouts.command, accepting: { accepts($0) || $0 == "invalid_param" }) {
        case .line("invalid_param"):
            throw NodeError.refused(node: name, command: command, answer: "invalid_param")
        case .line(let line):
            return line
        case .timedOut:
            throw NodeError.noAnswer(node: name, command: command, seconds: timeouts.command)
        case .closed(let reason):
            gone = reason
            throw NodeError.disconnected(node: name, reason: reason)
        }
    }

    private func expectOK(_ command: String) async throws {
        let answer = try await ask(command) { $0 == "ok" || $0 == "busy" || $0 == "keys_not_init" || $0 == "no_free_ch" || $0 == "not_joined" }
        guard answer == "ok" else { throw NodeError.refused(node: name, command: command, answer: answer) }
    }
}
