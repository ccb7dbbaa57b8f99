/// A kind from one of mtt's registries (sync targets, export formats, modem kinds): a value known
/// by its name, listed once in `registered`, which the parser, the configuration and the help read.
public protocol RegisteredKind: Sendable, Hashable, RawRepresentable, CaseIterable, CustomStringConvertible
where RawValue == String, AllCases == [Self] {
    /// Its name on the command line and in the configuration.
    var name: String { get }
    /// Every kind of its sort, in the order help lists them.
    static var registered: [Self] { get }
}

extension RegisteredKind {
    public static func == (a: Self, b: Self) -> Bool { a.name == b.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
    public var description: String { name }

    public init?(rawValue: String) {
        guard let found = Self.named(rawValue) else { return nil }
        self = found
    }

    public var rawValue: String { name }
    public static var allCases: [Self] { registered }

    /// The registered kind of this name.
    public static func named(_ name: String) -> Self? {
        registered.first { $0.name == name }
    }

    /// The registered names for help and messages: "a, b or c".
    public static var namesText: String { ListText.or(registered.map(\.name)) }
}
