import Logging
import MTTCore

/// The MapTheThings node as a GATT server, with the firmware's quirks: one transmission at a time
/// (a send that arrives meanwhile is dropped without a word), TX results only on success,
/// 20-byte values, key writes of the wrong length ignored, a node that sends before it has a
/// LoRa session wedges until reboot, a join or ABP session that resets the SF to 10.
///
/// It serves any ATT bearer: the in-process socket pair of `--node fake`, or `mtt fake-node`'s
/// Unix socket.
public actor NodeEmulator {
    /// What the emulated radio sent: the ground truth for tests and the simulated network.
    public struct Transmission: Sendable, Hashable {
        public var payload: [UInt8]
        public var frameCounter: UInt32
        public var spreadingFactor: Int
        /// The ble_seq of a tracked send; nil for an untracked one.
        public var bleSequence: UInt8?
    }

    /// How the emulated node behaves: what `--node fake?airtime=…&fail=…` sets.
    public struct Behaviour: Sendable {
        /// How long a transmission keeps the radio busy.
        public var airtime = 0.05
        /// The share of sends, 0 to 1, that fail: never on air, and no result reported.
        public var failures = 0.0
        /// The ATT MTU the node offers in an MTU exchange: the Bluefruit's firmware keeps the
        /// default, 23; the link's own limit (the kernel's L2CAP MTU) caps it.
        public var mtu: UInt16 = 23
        public init() {}
    }

    private var table: AttributeTable
    /// The link being served; a node takes one central at a time.
    private var bearer: (any ATTBearer)?
    /// The MTU agreed on the link being served.
    private var mtu = 23
    private var behaviour = Behaviour()
    private var inFlight = false
    private var wedged = false
    private var frameCounter: UInt32 = 0
    private var writtenOTAAKeys: Set<BluetoothUUID> = []
    private var writtenABPKeys: Set<BluetoothUUID> = []
    public private(set) var transmissions: [Transmission] = []
    /// Sends dropped because one was already in flight.
    public private(set) var droppedSends = 0
    private var listener: (@Sendable (RadioFrame) -> LinkCheck)?
    /// What a transmission's airtime passes on.
    private let clock: any TimeSource

    /// - Parameters:
    ///   - joined: start with an ABP session (a DevAddr), as a node that joined before mtt connected.
    ///   - devEUI: console order (MSB first); stored LSB first as the node does.
    ///   - clock: what the airtime runs on; a test passes the node driver's manual clock, so that a
    ///     timeout and an airtime race only when the test moves time.
    public init(joined: Bool = true, devEUI: String = "0004A30B001C0530", battery: UInt8 = 87, clock: any TimeSource = SystemClock()) {
        self.clock = clock
        let eui = Hex.bytes(devEUI) ?? [UInt8](repeating: 0, count: 8)
        let L = MapTheThingsProfile.self
        table = AttributeTable([
            .init(uuid: L.loraService, characteristics: [
                .init(uuid: L.command, properties: [.write]),
                .init(uuid: L.sendPacket, properties: [.write]),
                .init(uuid: L.sendPacketWithAck, properties: [.write]),
                .init(uuid: L.txResult, properties: [.notify]),
                .init(uuid: L.devAddr, properties: [.read, .write], value: joined ? [0x26, 0x0B, 0x12, 0x34] : [0, 0, 0, 0]),
                .init(uuid: L.nwkSKey, properties: [.read, .write], value: [UInt8](repeating: joined ? 0x11 : 0, count: 16)),
                .init(uuid: L.appSKey, properties: [.read, .write], value: [UInt8](repeating: joined ? 0x22 : 0, count: 16)),
                .init(uuid: L.appKey, properties: [.read, .write], value: [UInt8](repeating: 0, count: 16)),
                .init(uuid: L.appEUI, properties: [.read, .write], value: [UInt8](repeating: 0, count: 8)),
                .init(uuid: L.devEUI, properties: [.read, .write], value: eui.reversed()),
                .init(uuid: L.spreadingFactor, properties: [.read, .write], value: [10]),
            ]),
            .init(uuid: L.logService, characteristics: [.init(uuid: L.logText, properties: [.notify])]),
            .init(uuid: L.batteryService, characteristics: [.init(uuid: L.batteryLevel, properties: [.read, .notify], value: [battery])]),
            .init(uuid: L.deviceInformationService, characteristics: [
                .init(uuid: L.manufacturer, properties: [.read], value: Array("TheThingsNYC".utf8)),
                .init(uuid: L.softwareRevision, properties: [.read], value: Array("0.1.0".utf8)),
            ]),
        ])
    }

    public func configure(_ change: @Sendable (inout Behaviour) -> Void) {
        change(&behaviour)
    }

    /// Serves ATT requests on `link` until it drops. Notifications are switched off again after,
    /// as a real node forgets them when the central goes.
    public func serve(_ link: any ATTBearer) async {
        bearer = link
        mtu = 23
        for await bytes in link.incoming() {
            handle(bytes)
        }
        bearer = nil
        for attribute in table.attributes where attribute.type == .clientCharacteristicConfiguration {
            table.setValue([0, 0], at: attribute.handle)
        }
    }

    /// Serves centrals one after another, keeping its state (keys, frame counter) across
    /// connections as a real node does. Ends only when the listener fails.
    public func serve(connectionsFrom listener: some ATTListener) async throws(BearerError) {
        let logger = Logger(label: "mtt.fake-node")
        while true {
            let link = try await listener.accept()
            logger.info("a central connected: \(link.name)")
            await serve(link)
            logger.info("the central left: \(link.closeReason ?? "?")")
        }
    }

    /// The link drops, as when the car drives out of range: the central sees its bearer close.
    public func dropLink() {
        bearer?.close()
    }

    /// A characteristic's value as the node holds it (EUIs LSB first, as written over the air).
    public func storedValue(_ characteristic: BluetoothUUID) -> [UInt8]? {
        table.valueHandle(of: characteristic).flatMap { table[$0]?.value }
    }

    public var isWedged: Bool { wedged }

    /// Sends a battery notification, as the node does when its level changes.
    public func setBattery(_ level: UInt8) {
        guard let handle = table.valueHandle(of: MapTheThingsProfile.batteryLevel) else { return }
        table.setValue([level], at: handle)
        notify(MapTheThingsProfile.batteryLevel, [level])
    }

    /// Prints a line on the node's log characteristic, in 20-byte notifications.
    public func log(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            notify(MapTheThingsProfile.logText, Array(bytes[offset..<min(offset + MapTheThingsProfile.maximumValueLength, bytes.count)]))
            offset += MapTheThingsProfile.maximumValueLength
        }
    }

    // MARK: ATT

    private func handle(_ bytes: [UInt8]) {
        guard let request = try? ATTPDU(bytes: bytes) else {
            // An opcode the server does not know: Request Not Supported, as the spec asks.
            if let opcode = bytes.first, opcode & 0x40 == 0 {
                send(.errorResponse(request: opcode, handle: 0, error: .requestNotSupported))
            }
            return
        }
        switch request {
        case .exchangeMTURequest(let clientMTU):
            let offered = max(23, min(behaviour.mtu, bearer?.mtuLimit ?? .max))
            mtu = Int(min(offered, max(23, clientMTU)))
            send(.exchangeMTUResponse(mtu: offered))
        case .writeRequest(let handle, let value), .writeCommand(let handle, let value):
            if let refusal = table.answer(request, mtu: mtu) {
                if case .writeRequest = request { send(refusal) }
                return
            }
            if case .writeRequest = request { send(.writeResponse) }
            write(value, at: handle)
        case .confirmation, .notification, .indication:
            break
        default:
            if let answer = table.answer(request, mtu: mtu) { send(answer) }
        }
    }

    private func send(_ pdu: ATTPDU) {
        try? bearer?.send(pdu.bytes)
    }

    private func notify(_ characteristic: BluetoothUUID, _ value: [UInt8]) {
        guard let handle = table.valueHandle(of: characteristic),
              let cccd = table.configurationHandle(of: characteristic), table[cccd]?.value.first == 1
        else { return }
        send(.notification(handle: handle, value: value))
    }

    // MARK: The firmware

    private func write(_ value: [UInt8], at handle: UInt16) {
        guard let attribute = table[handle] else { return }
        if attribute.type == .clientCharacteristicConfiguration {
            table.setValue(Array(value.prefix(2)), at: handle)
            return
        }
        let L = MapTheThingsProfile.self
        switch attribute.characteristic {
        case L.command:
            if value == [0x01, 0x00] { bearer?.close() }
        case L.sendPacketWithAck:
            guard value.count >= 2, value.count <= L.maximumValueLength else { return }
            startTransmission(payload: Array(value.dropFirst()), sequence: value[0])
        case L.sendPacket:
            guard !value.isEmpty, value.count <= L.maximumValueLength else { return }
            startTransmission(payload: value, sequence: nil)
        case L.spreadingFactor:
            guard value.count == 1 else { return }
            table.setValue([(7...10).contains(Int(value[0])) ? value[0] : 10], at: handle)
        case L.devAddr, L.nwkSKey, L.appSKey:
            guard value.count == attribute.value.count else { return }  // wrong length: ignored
            table.setValue(value, at: handle)
            writtenABPKeys.insert(attribute.type)
            if writtenABPKeys.count == 3 {
                writtenABPKeys = []
                startSession()
            }
        case L.appKey, L.appEUI, L.devEUI:
            guard value.count == attribute.value.count else { return }
            table.setValue(value, at: handle)
            writtenOTAAKeys.insert(attribute.type)
            if writtenOTAAKeys.count == 3 {
                writtenOTAAKeys = []
                join()
            }
        default:
            break
        }
    }

    private var hasSession: Bool {
        guard let handle = table.valueHandle(of: MapTheThingsProfile.devAddr) else { return false }
        return table[handle]?.value != [0, 0, 0, 0]
    }

    private func startTransmission(payload: [UInt8], sequence: UInt8?) {
        // A send before the LoRa session exists wedges the firmware until it is rebooted (inferred).
        guard hasSession else {
            wedged = true
            return
        }
        guard !wedged else { return }
        guard !inFlight else {
            droppedSends += 1
            return
        }
        inFlight = true
        let sf = Int(table.valueHandle(of: MapTheThingsProfile.spreadingFactor).flatMap { table[$0]?.value.first } ?? 10)
        let transmission = Transmission(payload: payload, frameCounter: frameCounter, spreadingFactor: sf, bleSequence: sequence)
        let airtime = behaviour.airtime
        Task { [clock] in
            try? await clock.sleep(seconds: airtime)
            self.finish(transmission)
        }
    }

    private func finish(_ transmission: Transmission) {
        inFlight = false
        // A failed send never went on air (the firmware reports only successes): no gateway can
        // hear it, and the frame counter stays.
        if transmission.bleSequence != nil, behaviour.failures > 0, Double.random(in: 0..<1) < behaviour.failures { return }
        frameCounter &+= 1
        transmissions.append(transmission)
        _ = listener?(RadioFrame(payload: transmission.payload, frameCounter: transmission.frameCounter, spreadingFactor: transmission.spreadingFactor))
        if let sequence = transmission.bleSequence {
            notify(MapTheThingsProfile.txResult, TXResult(bleSequence: sequence, error: 0, frameCounter: transmission.frameCounter).bytes)
        }
    }

    /// OTAA keys written: the join succeeds at once here; DevAddr and session keys change without
    /// a notification, and SF goes back to 10.
    private func join() {
        let L = MapTheThingsProfile.self
        if let h = table.valueHandle(of: L.devAddr) { table.setValue([0x26, 0x0B, 0x77, 0x01], at: h) }
        if let h = table.valueHandle(of: L.nwkSKey) { table.setValue([UInt8](repeating: 0x33, count: 16), at: h) }
        if let h = table.valueHandle(of: L.appSKey) { table.setValue([UInt8](repeating: 0x44, count: 16), at: h) }
        startSession()
    }

    /// A wedged firmware stays wedged: only a reboot (a new emulator) clears it.
    private func startSession() {
        frameCounter = 0
        if let h = table.valueHandle(of: MapTheThingsProfile.spreadingFactor) { table.setValue([10], at: h) }
    }
}

extension NodeEmulator: EmulatedRadio {
    /// The simulated network listens here.
    public func whenTransmitting(_ hear: @escaping @Sendable (RadioFrame) -> LinkCheck) {
        listener = hear
    }
}
