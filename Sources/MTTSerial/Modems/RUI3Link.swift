import MTTCore

extension ModemKind {
    public static let rui3 = ModemKind(
        name: "rui3", help: "RAKwireless RUI3 AT commands (RAK3172, RAK4630, …)", defaultBaud: 115_200,
        open: { spec, timeouts in try await RUI3Link(spec: spec, timeouts: timeouts) },
        personality: { joined, holdsKeys in RUI3Personality(joined: joined, holdsKeys: holdsKeys) })
}

/// A RAKwireless module with RUI3 firmware, driven with its AT commands (115200 baud).
///
/// RUI3 answers `AT+X=?` with `AT+X=value` and then a status line (`OK`, `AT_ERROR`, …), and reports
/// join and transmission results later as `+EVT:` lines. It has no command for the uplink frame
/// counter, so mtt counts: LoRaWAN starts FCntUp at 0 after a join, and each unconfirmed uplink
/// that the modem reports sent uses the next one. That count is known only after a join mtt made.
public actor RUI3Link: NodeLink {
    public nonisolated let name: String
    private let conversation: LineConversation
    private let timeouts: ModemTimeouts
    private var joined: Bool?
    private var band: Int?
    private var nextFrameCounter: UInt32?
    private var sends = 0
    private var gone: String?
    /// `AT+LINKCHECK=2` was given on this link since its last join.
    private var checkingLinks = false

    static let statuses: Set<String> = [
        "OK", "AT_ERROR", "AT_PARAM_ERROR", "AT_BUSY_ERROR", "AT_TEST_PARAM_OVERFLOW", "AT_NO_CLASSB_ENABLE",
        "AT_NO_NETWORK_JOINED", "AT_RX_ERROR", "AT_MODE_NO_SUPPORT", "AT_COMMAND_NOT_FOUND",
    ]

    /// What each status means, for the user.
    static func explain(_ status: String) -> String {
        switch status {
        case "AT_ERROR": return "the modem could not run the command (AT_ERROR)"
        case "AT_PARAM_ERROR": return "the modem rejected a parameter (AT_PARAM_ERROR)"
        case "AT_BUSY_ERROR": return "the modem was busy with an earlier transmission or join (AT_BUSY_ERROR)"
        case "AT_TEST_PARAM_OVERFLOW": return "a parameter is too long (AT_TEST_PARAM_OVERFLOW)"
        case "AT_NO_NETWORK_JOINED": return "the modem has not joined the network (AT_NO_NETWORK_JOINED)"
        case "AT_RX_ERROR": return "the modem had a receive error (AT_RX_ERROR)"
        case "AT_MODE_NO_SUPPORT": return "the modem is not in LoRaWAN mode (AT_MODE_NO_SUPPORT): set AT+NWM=1"
        case "AT_COMMAND_NOT_FOUND": return "the firmware does not know the command (AT_COMMAND_NOT_FOUND): is it RUI3?"
        default: return "the modem answered \(status)"
        }
    }

    public init(spec: SerialNodeSpec, timeouts: ModemTimeouts = ModemTimeouts()) async throws(SerialPortError) {
        name = spec.description
        self.timeouts = timeouts
        conversation = try await LineConversation.open(spec)
    }

    public func info() async throws -> NodeInfo {
        let version = try await query("AT+VER")
        let devEUI = try await query("AT+DEVEUI")
        let devAddr = try await query("AT+DEVADDR")
        let dr = try await query("AT+DR")
        band = Int(try await query("AT+BAND"))
        let isJoined = try await query("AT+NJS") == "1"
        joined = isJoined
        return NodeInfo(
            model: "RUI3 \(version)", devEUI: devEUI.uppercased(), devAddr: devAddr.uppercased(),
            spreadingFactor: Int(dr).flatMap(plan.spreadingFactor(dataRate:)), isJoined: isJoined)
    }

    public func send(_ payload: [UInt8]) async throws -> SendResult {
        try await send(payload, checkingLink: false)
    }

    public func send(_ payload: [UInt8], checkingLink: Bool) async throws -> SendResult {
        if let gone { throw NodeError.disconnected(node: name, reason: gone) }
        if joined == nil { _ = try await info() }
        guard joined == true else { throw NodeError.notJoined(node: name) }
        if checkingLink && !checkingLinks {
            // A LinkCheckReq with every uplink, each answered by a `+EVT:LINKCHECK` line.
            try await expectOK("AT+LINKCHECK=2")
            checkingLinks = true
        }
        sends += 1
        let sequence = sends
        let status: String
        do {
            status = try await run("AT+SEND=1:\(Hex.string(payload))").status
        } catch NodeError.noAnswer {
            return SendResult(sequence: sequence, outcome: .failed(reason: "the modem did not answer AT+SEND within \(timeouts.command.plainText) s"))
        } catch NodeError.disconnected(_, let reason) {
            return SendResult(sequence: sequence, outcome: .failed(reason: reason))
        }
        switch status {
        case "OK":
            break
        case "AT_NO_NETWORK_JOINED":
            joined = false
            throw NodeError.notJoined(node: name)
        default:
            return SendResult(sequence: sequence, outcome: .failed(reason: Self.explain(status)))
        }
        // The link check's event may come before the transmission's result or after it.
        var linkCheck: LinkCheck?
        var result: LineConversation.Reply
        repeat {
            result = await conversation.next(timeout: timeouts.transmission) {
                $0.hasPrefix("+EVT:TX_DONE") || $0.hasPrefix("+EVT:SEND_CONFIRMED") || (checkingLink && $0.hasPrefix(Self.linkCheckEvent))
            }
            if case .line(let event) = result, event.hasPrefix(Self.linkCheckEvent) { linkCheck = Self.linkCheck(event) ?? .unanswered } else { break }
        } while true
        switch result {
        case .line(let event) where event.hasPrefix("+EVT:SEND_CONFIRMED_FAILED"):
            return SendResult(sequence: sequence, outcome: .failed(reason: "the network did not acknowledge (\(event.dropFirst(5)))"))
        case .line:
            let counter = nextFrameCounter
            nextFrameCounter = counter.map { $0 &+ 1 }
            if checkingLink && linkCheck == nil {
                // No event by then is no answer: a check that went unheard, never a wait without end.
                if case .line(let event) = await conversation.next(timeout: timeouts.linkCheck, accepting: { $0.hasPrefix(Self.linkCheckEvent) }) {
                    linkCheck = Self.linkCheck(event)
                }
                linkCheck = linkCheck ?? .unanswered
            }
            return SendResult(sequence: sequence, outcome: .confirmed(frameCounter: counter), linkCheck: linkCheck)
        case .timedOut:
            return SendResult(sequence: sequence, outcome: .failed(reason: "no transmission result within \(timeouts.transmission.plainText) s: the modem stopped answering"))
        case .closed(let reason):
            gone = reason
            return SendResult(sequence: sequence, outcome: .failed(reason: reason))
        }
    }

    static let linkCheckEvent = "+EVT:LINKCHECK:"

    /// `+EVT:LINKCHECK:result,margin,gateways,rssi,snr`, with commas as the documentation shows or
    /// colons as newer firmware prints: a result of 0 is an answer, any other none. Nil for a line
    /// that is not one.
    public static func linkCheck(_ event: String) -> LinkCheck? {
        guard event.hasPrefix(linkCheckEvent) else { return nil }
        let fields = event.dropFirst(linkCheckEvent.count).split(whereSeparator: { $0 == "," || $0 == ":" }).map { Int($0.filter { $0 != " " }) }
        guard fields.count == 5, let result = fields[0], let margin = fields[1], let gateways = fields[2] else { return nil }
        guard result == 0 else { return .unanswered }
        return LinkCheck(gateways: gateways, margin: margin) ?? .unanswered
    }

    public func setSpreadingFactor(_ sf: Int) async throws {
        if band == nil { band = Int(try await query("AT+BAND")) }
        try await expectOK("AT+DR=\(try plan.dataRate(spreadingFactor: sf, node: name))")
    }

    /// `AT+JOIN=1:0:10:8`: join now, no auto-join, 10 s between the 8 attempts.
    public func joinOTAA() async throws -> Bool {
        try await joinOTAA(attempts: 8)
    }

    /// One OTAA join-request (the modem would otherwise retry by itself, outside mtt's join budget).
    public func join() async throws -> Bool {
        try await joinOTAA(attempts: 1)
    }

    /// `AT+JOIN=1:0:10:N`: join now, no auto-join at power-up, N tries 10 s apart.
    private func joinOTAA(attempts: Int) async throws -> Bool {
        try await expectOK("AT+JOIN=1:0:10:\(attempts)")
        let accepted = try await conversation.joinOutcome(
            node: name, command: "AT+JOIN", timeout: timeouts.join,
            isOutcome: { $0.hasPrefix("+EVT:JOIN") }, isAccepted: { $0 == "+EVT:JOINED" })
        joined = accepted
        nextFrameCounter = accepted ? 0 : nil
        // A new session: the link checks are asked for again.
        checkingLinks = false
        return accepted
    }

    /// OTAA keys as the TTN console shows them (MSB first).
    public func provisionOTAA(devEUI: String, joinEUI: String, appKey: String) async throws {
        try await expectOK("AT+NJM=1")
        try await expectOK("AT+DEVEUI=\(try ConsoleKey.hex(devEUI, bytes: 8, "DevEUI"))")
        try await expectOK("AT+APPEUI=\(try ConsoleKey.hex(joinEUI, bytes: 8, "JoinEUI"))")
        try await expectOK("AT+APPKEY=\(try ConsoleKey.hex(appKey, bytes: 16, "AppKey"))")
    }

    public func close() async {
        await conversation.close()
    }

    /// RUI3 band 5 is US915; the others number data rates as EU868 does.
    private var plan: DataRatePlan { band == 5 ? .us915 : .eu868 }

    /// `AT+X=?` → the value after `AT+X=`.
    private func query(_ command: String) async throws -> String {
        let (values, status) = try await run(command + "=?")
        guard status == "OK", let line = values.last(where: { $0.hasPrefix(command + "=") }) else {
            throw NodeError.refused(node: name, command: command + "=?", answer: Self.explain(status))
        }
        return String(line.dropFirst(command.count + 1))
    }

    private func expectOK(_ command: String) async throws {
        let status = try await run(command).status
        guard status == "OK" else { throw NodeError.refused(node: name, command: command, answer: Self.explain(status)) }
    }

    /// Sends a command and collects the lines up to its status line.
    private func run(_ command: String) async throws -> (values: [String], status: String) {
        if let gone { throw NodeError.disconnected(node: name, reason: gone) }
        await conversation.discardPending()
        do {
            try await conversation.send(command, timeout: timeouts.command)
        } catch {
            gone = error.description
            throw NodeError.disconnected(node: name, reason: error.description)
        }
        var values: [String] = []
        while true {
            switch await conversation.next(timeout: timeouts.command) {
            case .line(let line) where Self.statuses.contains(line):
                return (values, line)
            case .line(let line):
                values.append(line)
            case .timedOut:
                throw NodeError.noAnswer(node: name, command: command, seconds: timeouts.command)
            case .closed(let reason):
                gone = reason
                throw NodeError.disconnected(node: name, reason: reason)
            }
        }
    }
}
