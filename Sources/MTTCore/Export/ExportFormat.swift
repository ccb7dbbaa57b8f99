/// An export format: its name on the command line, a line of help and its writer. A format is one
/// writer file declaring its `ExportFormat` and one line in `registered`; `mtt export --format`
/// and its help read the list.
public struct ExportFormat: Sendable {
    public let name: String
    /// What it is for, for `mtt export --help`.
    public let help: String
    public let writer: any ExportWriter

    public init(name: String, help: String, writer: any ExportWriter) {
        self.name = name
        self.help = help
        self.writer = writer
    }

    /// Every format, in the order help lists them.
    public static let registered: [ExportFormat] = [
        .gpx,
        .geojson,
        .csv,
        .kml,
        .jsonl,
    ]

    /// "gpx, geojson, … or jsonl".
    public static var namesText: String { ListText.or(registered.map(\.name)) }
}

extension ExportFormat: Hashable, CustomStringConvertible {
    public static func == (a: ExportFormat, b: ExportFormat) -> Bool { a.name == b.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
    public var description: String { name }
}

extension ExportFormat: RawRepresentable, CaseIterable {
    public init?(rawValue: String) {
        guard let format = Self.registered.first(where: { $0.name == rawValue }) else { return nil }
        self = format
    }

    public var rawValue: String { name }
    public static var allCases: [ExportFormat] { registered }
}
