import FoundationEssentials
import Glibc
import MTTCore
import Synchronization

/// How an emulated modem behaves, as `--node 'fake-rn2483?busy=0.1&fail=0.1'` sets it: a modem
/// that is slow on the air, refuses or loses sends, does not hear join-accepts, is unplugged, has
/// crashed or sits on a noisy line, to try mtt's handling of each without the hardware.
public struct ModemEmulatorOptions: Sendable, Hashable {
    /// Seconds a transmission (and a join) takes before its result.
    public var airtime = 0.05
    /// Shares of sends, 0 to 1 together: refused at once as busy (`busy`, `AT_BUSY_ERROR`)…
    public var busy = 0.0
    /// … accepted, then failed on the air (`mac_err`, `+EVT:SEND_CONFIRMED_FAILED`)…
    public var failures = 0.0
    /// … accepted, and never answered.
    public var lostResults = 0.0
    /// Share of link checks whose answer never comes back, although the network heard the uplink.
    public var lostLinkChecks = 0.0
    /// The next this many join-requests hear no join-accept.
    public var deniedJoins = 0
    /// After this many more sends are accepted, the next one is accepted and the device unplugged.
    public var unplugAfterSends: Int?
    /// Answers nothing at all, as a crashed modem.
    public var silent = false
    /// A line of binary noise before every answer, as a wrong speed or a bad cable gives.
    public var noise = false

    public init() {}

    /// `airtime=S&busy=SHARE&fail=SHARE&lose=SHARE&lose-linkcheck=SHARE&deny-joins=N&unplug-after=N&silent&noise`.
    public init(parsing text: String, spec: String) throws(SpecError) {
        func fail() -> SpecError {
            SpecError("bad node spec \(spec): an emulated modem takes airtime=SECONDS, busy=, fail=, lose=, lose-linkcheck= (shares 0 to 1), deny-joins=N, unplug-after=N, silent and noise")
        }
        for pair in text.split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
            let number = kv.count == 2 ? Double(kv[1]) : nil
            let count = kv.count == 2 ? Int(kv[1]) : nil
            switch (kv[0], number, count) {
            case ("airtime", let n?, _) where n >= 0 && n <= 60: airtime = n
            case ("busy", let n?, _) where n >= 0 && n <= 1: busy = n
            case ("fail", let n?, _) where n >= 0 && n <= 1: failures = n
            case ("lose", let n?, _) where n >= 0 && n <= 1: lostResults = n
            case ("lose-linkcheck", let n?, _) where n >= 0 && n <= 1: lostLinkChecks = n
            case ("deny-joins", _, let n?) where n >= 0: deniedJoins = n
            case ("unplug-after", _, let n?) where n >= 0: unplugAfterSends = n
            case ("silent", nil, nil) where kv.count == 1: silent = true
            case ("noise", nil, nil) where kv.count == 1: noise = true
            default: throw fail()
            }
        }
        guard busy + failures + lostResults <= 1 else { throw fail() }
    }

    /// What becomes of the next send, drawn by the shares; counts down `unplugAfterSends`.
    mutating func nextSend() -> SendFate {
        if let left = unplugAfterSends {
            if left == 0 {
                unplugAfterSends = nil
                return .unplug
            }
            unplugAfterSends = left - 1
        }
        let draw = Double.random(in: 0..<1)
        if draw < busy { return .busy }
        if draw < busy + failures { return .transmitError }
        if draw < busy + failures + lostResults { return .noResult }
        return .sent
    }

    /// Whether the answer to a link check the network made is lost on its way back.
    func losesLinkCheck() -> Bool {
        lostLinkChecks > 0 && Double.random(in: 0..<1) < lostLinkChecks
    }

    /// Whether the next join-request is denied; counts the denials down.
    mutating func denyJoin() -> Bool {
        guard deniedJoins > 0 else { return false }
        deniedJoins -= 1
        return true
    }

    /// What becomes of one send.
    enum SendFate {
        case sent, busy, transmitError, noResult, unplug
    }
}

/// One answer line of an emulated modem, sent after `delay` seconds.
struct EmulatorReply {
    var line: String
    var delay: Double = 0
    var unplugAfter = false
}

/// A modem's command set as a state machine: a line in, answer lines out.
protocol ModemPersonality: Sendable {
    /// `air` puts a transmission on the air: the simulated network hears it there, and says what
    /// a link check sent with it would be answered.
    mutating func answer(_ command: String, options: inout ModemEmulatorOptions, air: (ModemEmulator.Transmission) -> LinkCheck) -> [EmulatorReply]
    var transmissions: [ModemEmulator.Transmission] { get }
    /// Join-requests it was asked for, accepted or not.
    var joinRequests: Int { get }
}

/// A LoRaWAN modem on a pseudo-terminal, for `--node fake-KIND` (`fake-rn2483`) and the tests:
/// open `slavePath` as you would `/dev/ttyUSB0`.
public final class ModemEmulator: Sendable {
    public struct Transmission: Sendable, Hashable {
        public var payload: [UInt8]
        public var frameCounter: UInt32
        /// What the modem was told of the link check sent with it: nil when none was asked for,
        /// unanswered when the network heard nobody or the answer was lost on its way back.
        public var linkCheck: LinkCheck?
    }

    public let kind: ModemKind
    private let pair: PseudoTerminalPair
    private let machine: Mutex<any ModemPersonality>
    private let options: Mutex<ModemEmulatorOptions>
    private let listener = Mutex<(@Sendable (RadioFrame) -> LinkCheck)?>(nil)

    public var slavePath: String { pair.slavePath }

    /// - Parameters:
    ///   - joined: start with a LoRaWAN session, as a modem that joined before mtt started.
    ///   - holdsKeys: not joined but holding OTAA keys, as every modem after a power cycle.
    ///   - options: how it behaves (`fake-KIND?…`).
    public init(kind: ModemKind, joined: Bool = true, holdsKeys: Bool = false, options: ModemEmulatorOptions = ModemEmulatorOptions()) throws(SerialPortError) {
        self.kind = kind
        self.options = Mutex(options)
        pair = try PseudoTerminalPair()
        machine = Mutex(kind.personality(joined, holdsKeys))
        BlockingThread.start(name: "mtt-modem-emulator") { [self] in self.serve() }
    }

    deinit {
        pair.close()
    }

    /// Changes how it behaves from the next command on.
    public func configure(_ change: (inout ModemEmulatorOptions) -> Void) {
        options.withLock { change(&$0) }
    }

    /// Join-requests it was asked for, accepted or not.
    public var joinRequests: Int { machine.withLock { $0.joinRequests } }

    /// What the emulated radio actually sent: the ground truth for tests.
    public var transmissions: [Transmission] { machine.withLock { $0.transmissions } }

    /// Pulls the plug: whoever has the device open sees it vanish.
    public func unplug() {
        pair.close()
    }

    private func serve() {
        var splitter = LineSplitter()
        while !pair.isClosed {
            let end = DescriptorReadLoop.run(pair.master, bufferSize: 512, isClosed: { pair.isClosed }) { bytes in
                for line in splitter.feed(bytes) { handle(String(decoding: line, as: UTF8.self)) }
            }
            // Nobody has the device open (EIO on the master): wait for the next user.
            if end != .closed { usleep(20_000) }
        }
    }

    private func handle(_ command: String) {
        // One command at a time, with the options as they are for it: what it uses up (denied
        // joins, the sends before an unplug) is written back.
        // Nobody listening is a radio out of every gateway's reach.
        let hear = listener.withLock { $0 }
        let (replies, current) = options.withLock { options in
            machine.withLock { m in
                if options.silent { return ([EmulatorReply](), options) }
                let replies = m.answer(command, options: &options) { t in
                    hear?(RadioFrame(payload: t.payload, frameCounter: t.frameCounter)) ?? .unanswered
                }
                return (replies, options)
            }
        }
        for reply in replies {
            if reply.delay > 0 { usleep(UInt32(reply.delay * 1_000_000)) }
            if current.noise { write([0xFF, 0x00, 0xFE, 0x13, 0x80, 0x0D, 0x0A]) }
            write(Array((reply.line + "\r\n").utf8))
            if reply.unplugAfter {
                unplug()
                return
            }
        }
    }

    private func write(_ bytes: [UInt8]) {
        // Nobody reading (the device closed) is no failure for the emulator: the bytes are gone.
        try? OutputError.writeAll(bytes, to: pair.master, target: pair.slavePath)
    }
}

extension ModemEmulator: EmulatedRadio {
    /// The simulated network hears each frame the emulated radio sends here.
    public func whenTransmitting(_ hear: @escaping @Sendable (RadioFrame) -> LinkCheck) {
        listener.withLock { $0 = hear }
    }
}
