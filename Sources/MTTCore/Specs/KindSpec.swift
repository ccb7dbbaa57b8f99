/// A kind of thing a spec on the command line names by its first word (`gpsd://…`, `ble:…`),
/// implemented in the adapter that speaks to it and listed by the command line: the fix sources
/// and the nodes. A spec is read by the first kind of the list that names it.
public protocol SpecKind: Sendable {
    associatedtype Recipe: SpecRecipe
    /// What its specs are, for messages: "GPS", "node".
    static var specName: String { get }
    /// Its forms, for help and messages.
    var form: String { get }
    /// Whether `text` is a spec of this kind.
    func names(_ text: String) -> Bool
    /// Reads a spec of this kind (the whole text), checked as far as it can be without opening anything.
    func read(_ text: String) throws(SpecError) -> Recipe
}

/// A spec read, to open later: it says how it reads back.
public protocol SpecRecipe: Sendable {
    /// The spec as mtt writes it (defaults filled in), for the database and logs.
    var description: String { get }
}

extension SpecKind {
    /// The usual way a spec names its kind: the name alone or followed by `:` (`gpsd`, `gpsd://…`).
    static func spec(_ text: String, startsWith name: String) -> Bool {
        text == name || text.hasPrefix(name + ":")
    }

    /// Every form of `kinds`, for help: "gpsd[://HOST:PORT], nmea:FILE or fake".
    public static func formsText(_ kinds: [Self]) -> String {
        ListText.or(kinds.map(\.form))
    }
}

/// A spec, read by the kind it names.
public struct KindSpec<Kind: SpecKind>: Sendable, CustomStringConvertible {
    public let kind: Kind
    let recipe: Kind.Recipe

    /// `text` read by the first of `kinds` that names it.
    public init(parsing text: String, kinds: [Kind]) throws(SpecError) {
        guard let kind = kinds.first(where: { $0.names(text) }) else {
            throw SpecError("bad \(Kind.specName) spec \(text): use \(Kind.formsText(kinds))")
        }
        self.kind = kind
        recipe = try kind.read(text)
    }

    public var description: String { recipe.description }
}

/// A `--gps` value.
public typealias GPSSpec = KindSpec<FixSourceKind>
/// A `--node` value.
public typealias NodeSpec = KindSpec<NodeKind>
