/// An export format: its name on the command line, a line of help and its writer. A format is one
/// writer file declaring its `ExportFormat` and one line in `registered`; `mtt export --format`
/// and its help read the list.
public struct ExportFormat: RegisteredKind {
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
        .gpkg,
    ]
}
