import FoundationEssentials
import Glibc
import MTTCore
import Synchronization

/// What an emulated modem should do differently, set by tests (and nothing else).
public struct ModemEmulatorBehaviour: Sendable {
    /// What the next sends meet, in order; an empty list means they succeed.
    public enum ScriptedSend: Sendable {
        /// Refused at once: `busy` / `AT_BUSY_ERROR`.
        case busy
        /// Accepted, then the radio failed: `mac_err` / `+EVT:SEND_CONFIRMED_FAILED`.
        case transmitError
        /// Accepted, then no result ever comes.
        case noResult
        /// Accepted, then the device is unplugged.
        case unplug
    }

    /// Answer nothing at all, as a crashed modem would.
    public var silent = false
    /// Put a line of binary noise before every answer.
    public var noise = false
    public var scriptedSends: [ScriptedSend] = []
    /// Seconds a transmission takes before its result.
    public var airtime = 0.05
    /// The next this many join-requests are denied (no join-accept heard).
    public var deniedJoins = 0
    /// Join-requests the modem was asked for, accepted or not.
    public var joinRequests = 0
}

/// One answer line of an emulated modem, sent after `delay` seconds.
struct EmulatorReply {
    var line: String
    var delay: Double = 0
    var unplugAfter = false
}

/// A modem's command set as a state machine: a line in, answer lines out.
protocol ModemPersonality: Sendable {
    mutating func answer(_ command: String, behaviour: inout ModemEmulatorBehaviour) -> [EmulatorReply]
    var transmissions: [ModemEmulator.Transmission] { get }
}

/// A LoRaWAN modem on a pseudo-terminal, for `--node fake-KIND` (`fake-rn2483`) and the tests:
/// open `slavePath` as you would `/dev/ttyUSB0`.
public final class ModemEmulator: Sendable {
    public struct Transmission: Sendable, Hashable {
        public var payload: [UInt8]
        public var frameCounter: UInt32
    }

    public let kind: ModemKind
    private let pair: PseudoTerminalPair
    private let machine: Mutex<any ModemPersonality>
    private let behaviour = Mutex(ModemEmulatorBehaviour())
    private let stopped = Atomic<Bool>(false)
    private let listener = Mutex<(@Sendable (RadioFrame) -> Void)?>(nil)

    public var slavePath: String { pair.slavePath }

    /// - Parameters:
    ///   - joined: start with a LoRaWAN session, as a modem that joined before mtt started.
    ///   - holdsKeys: not joined but holding OTAA keys, as every modem after a power cycle.
    public init(kind: ModemKind, joined: Bool = true, holdsKeys: Bool = false) throws(SerialPortError) {
        self.kind = kind
        pair = try PseudoTerminalPair()
        machine = Mutex(kind.personality(joined, holdsKeys))
        BlockingThread.start(name: "mtt-modem-emulator") { [self] in self.serve() }
    }

    deinit {
        stopped.store(true, ordering: .relaxed)
        pair.close()
    }

    public func behave(_ change: (inout ModemEmulatorBehaviour) -> Void) {
        behaviour.withLock { change(&$0) }
    }

    /// Its behaviour now, with what it counted.
    public var currentBehaviour: ModemEmulatorBehaviour { behaviour.withLock { $0 } }

    /// What the emulated radio actually sent: the ground truth for tests.
    public var transmissions: [Transmission] { machine.withLock { $0.transmissions } }

    /// Pulls the plug: whoever has the device open sees it vanish.
    public func unplug() {
        stopped.store(true, ordering: .relaxed)
        pair.close()
    }

    private func serve() {
        var splitter = LineSplitter()
        while !stopped.load(ordering: .relaxed) {
            let end = DescriptorReadLoop.run(pair.master, bufferSize: 512, isClosed: { stopped.load(ordering: .relaxed) }) { bytes in
                for line in splitter.feed(bytes) { handle(String(decoding: line, as: UTF8.self)) }
            }
            // Nobody has the device open (EIO on the master): wait for the next user.
            if end != .closed { usleep(20_000) }
        }
    }

    private func handle(_ command: String) {
        var current = behaviour.withLock { $0 }
        if current.silent { return }
        let (replies, sent) = machine.withLock { m in
            let before = m.transmissions.count
            let replies = m.answer(command, behaviour: &current)
            return (replies, Array(m.transmissions.dropFirst(before)))
        }
        if let hear = listener.withLock({ $0 }) { for t in sent { hear(RadioFrame(payload: t.payload, frameCounter: t.frameCounter)) } }
        // What the personality changed: the sends and joins it used up, the joins it counted.
        behaviour.withLock {
            $0.scriptedSends = current.scriptedSends
            $0.deniedJoins = current.deniedJoins
            $0.joinRequests = current.joinRequests
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
    public func whenTransmitting(_ hear: @escaping @Sendable (RadioFrame) -> Void) {
        listener.withLock { $0 = hear }
    }
}
