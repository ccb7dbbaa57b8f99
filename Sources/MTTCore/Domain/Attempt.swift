/// One transmit attempt that mtt asked a node to make in active mode.
///
/// It is stored as `pending` before the send, so a crash mid-send still leaves a record,
/// and becomes `confirmed` (with the LoRaWAN frame counter) or `failed`.
public struct Attempt: Sendable, Hashable, Codable {
    public enum State: String, Sendable, Hashable, Codable, CaseIterable {
        case pending
        case confirmed
        case failed
    }

    public var id: Int64?
    public var sessionID: Int64
    /// The node spec or name that made the attempt (`ble:AA:BB:…`, `fake:1`, `serial:/dev/ttyUSB0`).
    public var node: String
    /// The node's own sequence for matching the result: BLE `ble_seq` or a modem's send counter.
    public var sequence: Int?
    /// The LoRa payload as sent.
    public var payload: [UInt8]
    /// The fix the payload was built from.
    public var fix: Fix?
    public var sentAt: Timestamp
    public var state: State
    /// LoRaWAN FCntUp reported by the node once the send is confirmed.
    public var frameCounter: UInt32?
    /// The node's DevEUI (16 upper-case hex digits), for joining to what the network heard.
    public var devEUI: String?
    public var resolvedAt: Timestamp?
    /// Why the attempt failed, in words a user can act on.
    public var failureReason: String?
    /// The spreading factor the node sent at, as it said before the send: an attempt no gateway
    /// heard has no uplink to tell it.
    public var spreadingFactor: Int?

    public init(
        id: Int64? = nil, sessionID: Int64, node: String, sequence: Int? = nil, payload: [UInt8],
        fix: Fix?, sentAt: Timestamp, state: State = .pending, frameCounter: UInt32? = nil,
        devEUI: String? = nil, resolvedAt: Timestamp? = nil, failureReason: String? = nil,
        spreadingFactor: Int? = nil
    ) {
        self.id = id
        self.sessionID = sessionID
        self.node = node
        self.sequence = sequence
        self.payload = payload
        self.fix = fix
        self.sentAt = sentAt
        self.state = state
        self.frameCounter = frameCounter
        self.devEUI = devEUI
        self.resolvedAt = resolvedAt
        self.failureReason = failureReason
        self.spreadingFactor = spreadingFactor
    }
}
