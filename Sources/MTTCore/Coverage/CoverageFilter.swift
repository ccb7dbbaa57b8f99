/// Which aggregates `mtt coverage`, the map's cells and the exports read: the records' window and
/// session (as every command), one gateway, one spreading factor.
///
/// Cells are kept per session with the first and last time each was heard, so a time window
/// selects a session's visits to a cell that overlap it, not single receptions.
public struct CoverageFilter: Sendable, Hashable {
    public var window: ExportFilter
    public var gateway: String?
    public var spreadingFactor: Int?
    /// Gateways whose cells are left out (the map's silent ones, `SilentGateways`).
    public var hiddenGateways: Set<String> = []

    public init(window: ExportFilter = ExportFilter(), gateway: String? = nil, spreadingFactor: Int? = nil) {
        self.window = window
        self.gateway = gateway
        self.spreadingFactor = spreadingFactor
    }
}
