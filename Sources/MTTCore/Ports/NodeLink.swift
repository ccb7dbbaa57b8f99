/// What a node says about itself.
public struct NodeInfo: Sendable, Hashable {
    /// e.g. "RN2483 1.0.5", "RUI3 4.0.6", "MapTheThings 0.1.0".
    public var model: String
    /// 16 upper-case hex digits.
    public var devEUI: String?
    /// 8 upper-case hex digits; nil or zero before a join.
    public var devAddr: String?
    public var spreadingFactor: Int?
    public var isJoined: Bool
    /// Percent, when the node reports it.
    public var battery: Int?
    /// A Bluetooth node's ATT MTU, as the link agreed it: the largest write or notification is 3
    /// bytes less.
    public var attMTU: Int?

    public init(model: String, devEUI: String? = nil, devAddr: String? = nil, spreadingFactor: Int? = nil, isJoined: Bool, battery: Int? = nil, attMTU: Int? = nil) {
        self.model = model
        self.devEUI = devEUI
        self.devAddr = devAddr
        self.spreadingFactor = spreadingFactor
        self.isJoined = isJoined
        self.battery = battery
        self.attMTU = attMTU
    }
}

/// How one transmit attempt ended.
public struct SendResult: Sendable, Hashable {
    public enum Outcome: Sendable, Hashable {
        /// The node transmitted; the LoRaWAN FCntUp it used, when known.
        case confirmed(frameCounter: UInt32?)
        /// The node refused, reported an error, or said nothing within the timeout.
        case failed(reason: String)
    }

    /// The node's own sequence for this send (BLE `ble_seq`, a modem's send count).
    public var sequence: Int?
    public var outcome: Outcome
    /// The link check sent with it, when one was asked for (`send(_:checkingLink:)`).
    public var linkCheck: LinkCheck?

    public init(sequence: Int?, outcome: Outcome, linkCheck: LinkCheck? = nil) {
        self.sequence = sequence
        self.outcome = outcome
        self.linkCheck = linkCheck
    }
}

/// Why a node cannot be used at all (as opposed to one failed send).
public enum NodeError: Error, Hashable, CustomStringConvertible {
    /// The node has no LoRaWAN session; sending now would be lost (or wedge a BLE node).
    case notJoined(node: String)
    /// The device is gone: unplugged, link dropped.
    case disconnected(node: String, reason: String)
    /// The node did not answer a command within the timeout.
    case noAnswer(node: String, command: String, seconds: Double)
    /// The node answered a command with an error.
    case refused(node: String, command: String, answer: String)
    case unsupported(node: String, what: String)

    public var description: String {
        switch self {
        case .notJoined(let node): return "\(node) has not joined the network"
        case .disconnected(let node, let reason): return "\(node): \(reason)"
        case .noAnswer(let node, let command, let seconds):
            return "\(node) did not answer \(command) within \(seconds.plainText) s"
        case .refused(let node, let command, let answer): return "\(node) answered \(command) with \(answer)"
        case .unsupported(let node, let what): return "\(node) cannot \(what)"
        }
    }
}

/// A LoRa node mtt can make transmit: the MapTheThings BLE node or a serial modem.
/// Active mode drives every kind the same way.
public protocol NodeLink: Sendable {
    /// The node spec, for logs and the database.
    var name: String { get }
    func info() async throws -> NodeInfo
    /// Transmits `payload` on FPort 1, unconfirmed, and waits for the outcome. Throws only when
    /// nothing was sent (not joined, device gone); every send that was tried returns a result.
    func send(_ payload: [UInt8]) async throws -> SendResult
    /// The same, with a LoRaWAN link check asked for alongside when `checkingLink` (SPEC §10.3):
    /// the result then says what it answered. Only a node that speaks LoRaWAN's MAC on mtt's
    /// behalf (a serial modem) can; the others refuse.
    func send(_ payload: [UInt8], checkingLink: Bool) async throws -> SendResult
    func setSpreadingFactor(_ sf: Int) async throws
    /// Joins the network with the keys the node holds (one join-request); true when it is joined.
    /// Nodes that join by themselves (the MapTheThings firmware) only say whether they have.
    func join() async throws -> Bool
    /// Writes OTAA keys given as the TTN console shows them. A node that joins by itself once it
    /// has keys (the MapTheThings firmware) waits for that and returns whether it joined; a node
    /// that joins when told (a serial modem) returns nil: `join()` joins it.
    func provision(devEUI: String, joinEUI: String, appKey: String) async throws -> Bool?
    /// Drops the link mtt reaches the node by, so another device (a phone) can connect.
    func dropLink() async throws
    func close() async
}

extension NodeLink {
    public func provision(devEUI: String, joinEUI: String, appKey: String) async throws -> Bool? {
        throw NodeError.unsupported(node: name, what: "take OTAA keys")
    }

    /// A wired node (a serial modem) has no link to give up.
    public func dropLink() async throws {
        throw NodeError.unsupported(node: name, what: "drop its link: it is wired, there is no link to drop")
    }

    public func join() async throws -> Bool {
        try await info().isJoined
    }

    public func send(_ payload: [UInt8], checkingLink: Bool) async throws -> SendResult {
        guard !checkingLink else {
            throw NodeError.unsupported(node: name, what: "ask for link checks (LinkCheckReq): only a serial modem can")
        }
        return try await send(payload)
    }
}
