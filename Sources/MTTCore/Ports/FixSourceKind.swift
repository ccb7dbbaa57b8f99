/// A kind of fix source that a `--gps` spec names (`gpsd://…`, `nmea:FILE`, `fake`): it lives in
/// the adapter that implements it, one file each, and the command line lists the kinds it offers;
/// the parser, `mtt config check` and the help read that list.
public struct FixSourceKind: SpecKind {
    public static let specName = "GPS"
    /// The spec's first word: `gpsd` for `gpsd://HOST`, `nmea` for `nmea:FILE`.
    public let name: String
    /// Its forms, for help and messages: `gpsd[://HOST:PORT]`.
    public let form: String
    /// How a session with it is marked simulated ("fake GPS"); nil for a real receiver.
    public let simulatedAs: String?
    /// Whether it runs on the run's clock, so that a fully simulated run may be sped up.
    public let followsTheRunClock: Bool
    /// Reads a spec of this kind (the whole text), checked as far as it can be without opening
    /// anything; throws the reason with the forms it takes.
    private let reader: @Sendable (String) throws(SpecError) -> FixSourceRecipe

    public init(
        name: String, form: String, simulatedAs: String? = nil, followsTheRunClock: Bool = false,
        read: @escaping @Sendable (String) throws(SpecError) -> FixSourceRecipe
    ) {
        self.name = name
        self.form = form
        self.simulatedAs = simulatedAs
        self.followsTheRunClock = followsTheRunClock
        reader = read
    }

    /// Whether `text` is a spec of this kind: its name alone or followed by `:`, or by `+` and
    /// another spec (`payload+gpsd`).
    public func names(_ text: String) -> Bool {
        Self.spec(text, startsWith: name) || text.hasPrefix(name + "+")
    }

    public func read(_ text: String) throws(SpecError) -> FixSourceRecipe {
        try reader(text)
    }
}

/// A spec read: how it reads back, and how its source is made once a run needs it.
public struct FixSourceRecipe: SpecRecipe {
    /// The spec as mtt writes it (defaults filled in), for the database and logs.
    public let description: String
    /// Positions from the uplinks' own payloads: false alone (`payload`), true beside a GPS's
    /// track (`payload+GPS`); nil for a GPS alone.
    public let payloadBesideTrack: Bool?
    let make: @Sendable (FixSourceContext) -> any FixSource

    public init(description: String, payloadBesideTrack: Bool? = nil, make: @escaping @Sendable (FixSourceContext) -> any FixSource) {
        self.description = description
        self.payloadBesideTrack = payloadBesideTrack
        self.make = make
    }
}

/// What a source is made with: the run's clock, and how a lost receiver is tried again.
public struct FixSourceContext: Sendable {
    public var clock: any TimeSource
    public var reconnect: Backoff

    public init(clock: any TimeSource = SystemClock(), reconnect: Backoff = Backoff(initial: 0.5, maximum: 10)) {
        self.clock = clock
        self.reconnect = reconnect
    }
}

extension GPSSpec where Kind == FixSourceKind {
    /// A new source of this spec.
    public func source(_ context: FixSourceContext = FixSourceContext()) -> any FixSource {
        recipe.make(context)
    }

    /// See `FixSourceRecipe.payloadBesideTrack`.
    public var payloadBesideTrack: Bool? { recipe.payloadBesideTrack }
}
