/// A kind of node that a `--node` spec names (`ble:…`, `serial:…`, `unix:…`, `fake`, `fake-KIND`):
/// it lives in the adapter that speaks to it, one file each, and the command line lists the kinds
/// it offers; the parser, `mtt config check`, `mtt node` and the help read that list.
public struct NodeKind: SpecKind {
    public static let specName = "node"
    /// The spec's first word, for messages.
    public let name: String
    /// Its forms, for help and messages: `ble:AA:BB:CC:DD:EE:FF[?type=public|random]`.
    public let form: String
    /// How a session with it is marked simulated ("fake node"); nil for a real radio.
    public let simulatedAs: String?
    /// Whether it is emulated in this process on the run's clock, so that a fully simulated run
    /// may be sped up.
    public let followsTheRunClock: Bool
    /// Whether its nodes can send a LoRaWAN link check with an uplink (`--linkcheck`).
    public let checksLinks: Bool
    private let naming: @Sendable (String) -> Bool
    private let reader: @Sendable (String) throws(SpecError) -> NodeRecipe

    /// `names`: by default the name alone or followed by `:`.
    public init(
        name: String, form: String, simulatedAs: String? = nil, followsTheRunClock: Bool = false, checksLinks: Bool = false,
        names: (@Sendable (String) -> Bool)? = nil, read: @escaping @Sendable (String) throws(SpecError) -> NodeRecipe
    ) {
        self.name = name
        self.form = form
        self.simulatedAs = simulatedAs
        self.followsTheRunClock = followsTheRunClock
        self.checksLinks = checksLinks
        naming = names ?? { text in Self.spec(text, startsWith: name) }
        reader = read
    }

    public func names(_ text: String) -> Bool { naming(text) }

    public func read(_ text: String) throws(SpecError) -> NodeRecipe { try reader(text) }
}

/// A spec read: how it reads back, and how its nodes are opened once a command needs them.
public struct NodeRecipe: SpecRecipe {
    /// The spec as mtt writes it, for the database and logs.
    public let description: String
    let open: @Sendable (NodeOpening) async throws -> [OpenedNode]

    public init(description: String, open: @escaping @Sendable (NodeOpening) async throws -> [OpenedNode]) {
        self.description = description
        self.open = open
    }
}

/// What nodes are opened with: how long a search for one may take, and the speed of a simulated
/// run (an emulator in this process waits its send timeout on the run's time).
public struct NodeOpening: Sendable {
    public var scanSeconds: Double
    public var speed: Double

    /// 15 s: past the kernel's 10.24 s LE discovery round, so that a node whose first advertisement
    /// was missed is heard in the next (a loaded machine's 10 s search heard none).
    public init(scanSeconds: Double = 15, speed: Double = 1) {
        self.scanSeconds = scanSeconds
        self.speed = speed
    }
}

/// A node opened: its link, what reaches this very node again after a loss, and for an emulator
/// in this process its radio (which the simulated network hears) and whatever must stay alive
/// behind it.
public struct OpenedNode: Sendable {
    public let link: any NodeLink
    public let connector: any NodeConnector
    public let radio: (any EmulatedRadio)?
    public let keepAlive: (any Sendable)?

    public init(link: any NodeLink, connector: any NodeConnector, radio: (any EmulatedRadio)? = nil, keepAlive: (any Sendable)? = nil) {
        self.link = link
        self.connector = connector
        self.radio = radio
        self.keepAlive = keepAlive
    }
}

extension NodeSpec where Kind == NodeKind {
    /// Opens its nodes (`fake:3` is three).
    public func open(_ opening: NodeOpening = NodeOpening()) async throws -> [OpenedNode] {
        try await recipe.open(opening)
    }
}

/// Reaches a node again by opening its spec anew (a BLE address, a socket): for the kinds whose
/// node is found again where it was.
public struct ReopeningConnector: NodeConnector {
    public let name: String
    public let longestRetryWait: Double
    private let reopen: @Sendable () async throws -> any NodeLink

    public init(name: String, longestRetryWait: Double, reopen: @escaping @Sendable () async throws -> any NodeLink) {
        self.name = name
        self.longestRetryWait = longestRetryWait
        self.reopen = reopen
    }

    public func connect() async throws -> any NodeLink {
        try await reopen()
    }
}
