/// A kind of fix source that a `--gps` spec names (`gpsd://…`, `nmea:FILE`, `fake`): it lives in
/// the adapter that implements it, one file each, and the command line lists the kinds it offers;
/// the parser, `mtt config check` and the help read that list.
public struct FixSourceKind: Sendable {
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
    let read: @Sendable (String) throws(SpecError) -> FixSourceRecipe

    public init(
        name: String, form: String, simulatedAs: String? = nil, followsTheRunClock: Bool = false,
        read: @escaping @Sendable (String) throws(SpecError) -> FixSourceRecipe
    ) {
        self.name = name
        self.form = form
        self.simulatedAs = simulatedAs
        self.followsTheRunClock = followsTheRunClock
        self.read = read
    }

    /// Whether `text` is a spec of this kind: its name alone or followed by `:`.
    func names(_ text: String) -> Bool {
        text == name || text.hasPrefix(name + ":")
    }

    /// Every form of `kinds`, for help: "gpsd[://HOST:PORT], nmea:FILE or fake".
    public static func formsText(_ kinds: [FixSourceKind]) -> String {
        ListText.or(kinds.map(\.form))
    }
}

/// A spec read: how it reads back, and how its source is made once a run needs it.
public struct FixSourceRecipe: Sendable {
    /// The spec as mtt writes it (defaults filled in), for the database and logs.
    public let description: String
    let make: @Sendable (FixSourceContext) -> any FixSource

    public init(description: String, make: @escaping @Sendable (FixSourceContext) -> any FixSource) {
        self.description = description
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

/// A `--gps` value, read by the kind it names.
public struct GPSSpec: Sendable, CustomStringConvertible {
    public let kind: FixSourceKind
    private let recipe: FixSourceRecipe

    /// `text` read by the one of `kinds` it names.
    public init(parsing text: String, kinds: [FixSourceKind]) throws(SpecError) {
        guard let kind = kinds.first(where: { $0.names(text) }) else {
            throw SpecError("bad GPS spec \(text): use \(FixSourceKind.formsText(kinds))")
        }
        self.kind = kind
        recipe = try kind.read(text)
    }

    public var description: String { recipe.description }

    /// A new source of this spec.
    public func source(_ context: FixSourceContext = FixSourceContext()) -> any FixSource {
        recipe.make(context)
    }
}
