import Logging
import MTTCore

/// The MapTheThings node over GATT: mtt's `NodeLink` for it.
///
/// One tracked send is outstanding at a time (the node drops a send that arrives while it is
/// transmitting); its TX result is matched by `ble_seq`; no result within 25 s is a failed
/// attempt, since the node never reports failures. Sending is refused while DevAddr reads zero:
/// a node asked to send before its LoRa session exists wedges until rebooted.
public actor MapTheThingsNode: NodeLink {
    public nonisolated let name: String
    private let gatt: GATTClient
    private let sendTimeout: Double
    /// What the TX result's timeout and the join's polling wait on.
    private let clock: any TimeSource
    private var characteristics: [BluetoothUUID: GATTCharacteristic] = [:]
    private var sequence = BLESequence()
    private var sends = TurnQueue()
    private var awaiting: AwaitedResult?
    /// Results that came before their send waited for them: after a stall (a loaded machine, a
    /// slow Pi) the write's answer and the TX result are read from the link in one go, and the
    /// result can reach this actor first. Emptied as each send starts, so only the current send's
    /// can be here; a late result of an earlier send has another `ble_seq`.
    private var earlyResults: [UInt8: TXResult] = [:]
    private var waitsStarted: UInt64 = 0
    private var battery: Int?
    private var logAssembler = LogLineAssembler()
    private let logContinuation: AsyncStream<String>.Continuation
    /// The node's log output, line by line.
    public nonisolated let logLines: AsyncStream<String>
    private let logger = Logger(label: "mtt.node")

    /// Discovers the node's table and subscribes to TX results, battery and log.
    /// `firstAnswerTimeout`: how long the first request (the MTU exchange) may wait, where a link
    /// can be up without a node behind it; ATT's own timeout when not given.
    public static func connect(
        bearer: any ATTBearer, name: String, sendTimeout: Double = MapTheThingsProfile.sendTimeout, attTimeout: Double = 30,
        firstAnswerTimeout: Double? = nil, clock: any TimeSource = SystemClock()
    ) async throws -> MapTheThingsNode {
        let gatt = GATTClient(bearer: bearer, timeout: attTimeout, clock: clock)
        await gatt.start()
        let node = MapTheThingsNode(name: name, gatt: gatt, sendTimeout: sendTimeout, clock: clock)
        do {
            try await node.discover(firstAnswerTimeout: firstAnswerTimeout)
        } catch {
            await gatt.close()
            throw error
        }
        return node
    }

    private init(name: String, gatt: GATTClient, sendTimeout: Double, clock: any TimeSource) {
        self.clock = clock
        self.name = name
        self.gatt = gatt
        self.sendTimeout = sendTimeout
        (logLines, logContinuation) = AsyncStream.makeStream(of: String.self)
    }

    private func discover(firstAnswerTimeout: Double?) async throws {
        try await gatt.exchangeMTU(timeout: firstAnswerTimeout)
        let services = try await gatt.discoverPrimaryServices()
        guard services.contains(where: { $0.uuid == MapTheThingsProfile.loraService }) else {
            throw GATTError.notFound("MapTheThings LoRa service (0x1830): is this a MapTheThings node?")
        }
        for service in services {
            for c in try await gatt.discoverCharacteristics(of: service) {
                characteristics[c.uuid] = c
            }
        }
        let notifications = gatt.notifications
        Task { [weak self] in
            for await n in notifications { await self?.notified(n) }
            await self?.linkEnded()
        }
        for uuid in [MapTheThingsProfile.txResult, MapTheThingsProfile.batteryLevel, MapTheThingsProfile.logText] {
            if let c = characteristics[uuid] { try await gatt.enableNotifications(c) }
        }
        guard characteristics[MapTheThingsProfile.txResult] != nil else { throw GATTError.notFound("TX result characteristic (0x2ADA)") }
    }

    // MARK: NodeLink

    public func info() async throws -> NodeInfo {
        let L = MapTheThingsProfile.self
        let software = String(decoding: try await read(L.softwareRevision), as: UTF8.self)
        let devAddr = try await read(L.devAddr)
        let devEUI = try await read(L.devEUI)
        let sf = try await read(L.spreadingFactor).first.map(Int.init)
        if battery == nil, let level = try? await read(L.batteryLevel).first { battery = Int(level) }
        return NodeInfo(
            model: "MapTheThings \(software)", devEUI: Hex.string(devEUI.reversed()), devAddr: Hex.string(devAddr),
            spreadingFactor: sf.map { (7...10).contains($0) ? $0 : 10 }, isJoined: devAddr.contains { $0 != 0 },
            battery: battery, attMTU: Int(await gatt.mtu))
    }

    public func send(_ payload: [UInt8]) async throws -> SendResult {
        guard payload.count >= 1, payload.count < MapTheThingsProfile.maximumValueLength else {
            throw NodeError.unsupported(node: name, what: "send \(payload.count) bytes (1 to 19 fit a BLE write)")
        }
        // The node drops a send that arrives while it transmits: one at a time, in order.
        while sends.isTaken {
            await withCheckedContinuation { sends.wait($0) }
        }
        sends.take()
        defer { sends.release() }
        guard try await overTheLink({ try await read(MapTheThingsProfile.devAddr) }).contains(where: { $0 != 0 }) else {
            throw NodeError.notJoined(node: name)
        }
        let seq = sequence.take()
        let handle = try handleOf(MapTheThingsProfile.sendPacketWithAck)
        earlyResults.removeAll()
        do {
            try await overTheLink { try await gatt.write(handle: handle, value: [seq] + payload) }
        } catch let error as GATTError {
            return SendResult(sequence: Int(seq), outcome: .failed(reason: error.description))
        }
        let result = await waitForResult(seq)
        // A stop while the node transmits ends the wait at once: the attempt is the run's to settle.
        if result == nil { try Task.checkCancellation() }
        // The link dropped while the node transmitted: the node's loss, said now and not at the next send.
        if result == nil, let reason = await gatt.dropReason { throw NodeError.disconnected(node: name, reason: reason) }
        guard let result else {
            return SendResult(sequence: Int(seq), outcome: .failed(reason: "no TX result within \(sendTimeout.plainText) s (the node reports only successes)"))
        }
        guard result.error == 0 else {
            return SendResult(sequence: Int(seq), outcome: .failed(reason: "the node reported error \(result.error)"))
        }
        return SendResult(sequence: Int(seq), outcome: .confirmed(frameCounter: result.frameCounter))
    }

    /// A GATT call during a send: a dropped link is the node's loss (`NodeError.disconnected`, which
    /// active mode reconnects), any other GATT error stays one.
    private func overTheLink<T>(_ call: () async throws -> T) async throws -> T {
        do {
            return try await call()
        } catch GATTError.linkDropped(let reason) {
            throw NodeError.disconnected(node: name, reason: reason)
        }
    }

    public func setSpreadingFactor(_ sf: Int) async throws {
        guard (7...10).contains(sf) else { throw NodeError.unsupported(node: name, what: "use SF\(sf) (it takes SF7 to SF10)") }
        try await gatt.write(handle: try handleOf(MapTheThingsProfile.spreadingFactor), value: [UInt8(sf)])
    }

    public func close() async {
        await gatt.close()
    }

    // MARK: Provisioning

    /// OTAA from console-order hex: the EUIs go over the air LSB first. Writing all three starts a
    /// join; the node changes DevAddr and keys without a notification, so mtt polls DevAddr.
    /// Returns whether a session appeared within `timeout`.
    public func provisionOTAA(devEUI: String, joinEUI: String, appKey: String, timeout: Double = 30) async throws -> Bool {
        let L = MapTheThingsProfile.self
        try await gatt.write(handle: try handleOf(L.appKey), value: try ConsoleKey.bytes(appKey, bytes: 16, "AppKey"))
        try await gatt.write(handle: try handleOf(L.appEUI), value: try ConsoleKey.bytes(joinEUI, bytes: 8, "JoinEUI").reversed())
        try await gatt.write(handle: try handleOf(L.devEUI), value: try ConsoleKey.bytes(devEUI, bytes: 8, "DevEUI").reversed())
        let deadline = clock.now().adding(seconds: timeout)
        while clock.now() < deadline {
            if try await read(L.devAddr).contains(where: { $0 != 0 }) { return true }
            // Polled: the node notifies no change of DevAddr.
            try await clock.sleep(seconds: 0.25)
        }
        return false
    }

    /// The node joins by itself once it has the keys: whether it did.
    public func provision(devEUI: String, joinEUI: String, appKey: String) async throws -> Bool? {
        try await provisionOTAA(devEUI: devEUI, joinEUI: joinEUI, appKey: appKey)
    }

    public func dropLink() async throws {
        try await disconnect()
    }

    /// ABP session from console-order hex (all MSB first on this node).
    public func provisionABP(devAddr: String, nwkSKey: String, appSKey: String) async throws {
        let L = MapTheThingsProfile.self
        try await gatt.write(handle: try handleOf(L.devAddr), value: try ConsoleKey.bytes(devAddr, bytes: 4, "DevAddr"))
        try await gatt.write(handle: try handleOf(L.nwkSKey), value: try ConsoleKey.bytes(nwkSKey, bytes: 16, "NwkSKey"))
        try await gatt.write(handle: try handleOf(L.appSKey), value: try ConsoleKey.bytes(appSKey, bytes: 16, "AppSKey"))
    }

    /// Asks the node to drop the BLE link (command 1).
    public func disconnect() async throws {
        try? await gatt.write(handle: try handleOf(MapTheThingsProfile.command), value: [0x01, 0x00])
        await gatt.close()
    }

    // MARK: Internals

    private func handleOf(_ uuid: BluetoothUUID) throws -> UInt16 {
        guard let c = characteristics[uuid] else { throw GATTError.notFound("characteristic \(uuid)") }
        return c.valueHandle
    }

    private func read(_ uuid: BluetoothUUID) async throws -> [UInt8] {
        try await gatt.read(handle: try handleOf(uuid))
    }

    /// The send waiting for its TX result. The timer is matched by `wait`, not by `ble_seq`: the
    /// sequence repeats every 255 sends, and a stale timer must not end a later send's wait.
    private struct AwaitedResult {
        let wait: UInt64
        let sequence: UInt8
        let continuation: CheckedContinuation<TXResult?, Never>
        var timer: Task<Void, Never>?
    }

    private func waitForResult(_ seq: UInt8) async -> TXResult? {
        if let early = earlyResults.removeValue(forKey: seq) { return early }
        let timeout = sendTimeout
        waitsStarted += 1
        let wait = waitsStarted
        // The cancellation's end of the wait reaches the actor after the wait is set up (the actor
        // is held until the continuation suspends), so it always finds it.
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                awaiting = AwaitedResult(wait: wait, sequence: seq, continuation: continuation)
                awaiting?.timer = Task { [weak self, clock] in
                    try? await clock.sleep(seconds: timeout)
                    await self?.endWait(wait, with: nil)
                }
            }
        } onCancel: {
            Task { await self.endWait(wait, with: nil) }
        }
    }

    private func endWait(_ wait: UInt64, with result: TXResult?) {
        guard let a = awaiting, a.wait == wait else { return }
        awaiting = nil
        a.timer?.cancel()
        a.continuation.resume(returning: result)
    }

    private func notified(_ n: GATTClient.Notification) {
        switch n.handle {
        case characteristics[MapTheThingsProfile.txResult]?.valueHandle:
            guard let result = try? TXResult(bytes: n.value) else {
                logger.warning("\(name): ignoring a malformed TX result \(Hex.string(n.value))")
                return
            }
            guard let a = awaiting else {
                // The current send's, before it waits (a late one of an earlier send is never taken:
                // its ble_seq differs).
                if sends.isTaken { earlyResults[result.bleSequence] = result }
                return
            }
            // A late result of an earlier, timed-out send matches nothing and is dropped.
            guard a.sequence == result.bleSequence else { return }
            endWait(a.wait, with: result)
        case characteristics[MapTheThingsProfile.batteryLevel]?.valueHandle:
            battery = n.value.first.map(Int.init)
        case characteristics[MapTheThingsProfile.logText]?.valueHandle:
            for line in logAssembler.append(n.value) { logContinuation.yield(line) }
        default:
            break
        }
    }

    private func linkEnded() {
        logContinuation.finish()
        if let a = awaiting { endWait(a.wait, with: nil) }
    }

    /// The battery level the node last reported, in percent (approximate: the firmware encodes it oddly).
    public var batteryLevel: Int? { battery }
}
