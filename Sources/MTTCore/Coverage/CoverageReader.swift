/// Where the coverage map reads its aggregates: this machine's store, or a community's database
/// (`mtt serve --db postgresql://…`). The same cells, gateway rows and reach either way.
public protocol CoverageReader: Sendable {
    /// The map's tiles at `zoom` (0…19) within `range` (everywhere when nil).
    func coverageCells(_ filter: CoverageFilter, zoom: Int, within range: TileRange?) throws -> [CoverageCell]
    /// Each gateway antenna's share of the tiles at `zoom` within `range`, by tile.
    func forEachGatewayCell(
        _ filter: CoverageFilter, zoom: Int, within range: TileRange?, perSpreadingFactor: Bool, _ body: (GatewayCell) throws -> Void) throws
    /// Each antenna's reach of gateways with a position (all gateways when `gateway` is nil).
    func reach(gateway: String?) throws -> [GatewayReach]
    /// The gateway antennas of the selection, most cells first.
    func coverageGateways(_ filter: CoverageFilter) throws -> [CoverageSummary.Gateway]
    /// What the prediction models are fitted to: each antenna's receptions and misses (`filter`'s
    /// gateway, when given, is the only antenna kept).
    func predictionData(_ filter: CoverageFilter) throws -> [AntennaData]
    /// The gateways silent for `days`, which the map hides by default.
    func silentGateways(days: Double) throws -> SilentGateways
}

extension CoverageReader {
    /// From every antenna's summary, as they are now.
    public func silentGateways(days: Double) throws -> SilentGateways {
        SilentGateways(try coverageGateways(CoverageFilter()), days: days)
    }
}

extension StoreCoverage: CoverageReader {}

/// A community's coverage: everybody's cells and gateways, and what each mapper gave, but nobody's
/// drive (no samples, tracks or sessions).
public protocol CommunityCoverageReader: CoverageReader {
    func communityStatus() throws -> CommunityStatus
}
