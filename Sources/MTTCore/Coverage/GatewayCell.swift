/// One gateway antenna's receptions in one tile (over the sessions and SFs a filter selects): at
/// zoom 19 a row of TTN Mapper's grid, with its buckets.
public struct GatewayCell: Sendable, Hashable {
    public var tile: MapTile
    public var network: String
    public var gateway: String
    public var antenna: Int
    /// The spreading factor, when the rows were read one per SF.
    public var spreadingFactor: Int?
    /// Receptions per bucket, indexed by `SignalBucket.rawValue`.
    public var buckets: [Int]
    public var best: Double
    public var firstAt: Timestamp
    public var lastAt: Timestamp
    /// For a cell of a place its gateway moved from (`GatewayMove`): when it moved.
    public var movedAt: Timestamp?

    public init(
        tile: MapTile, network: String, gateway: String, antenna: Int, spreadingFactor: Int?, buckets: [Int], best: Double, firstAt: Timestamp,
        lastAt: Timestamp, movedAt: Timestamp? = nil
    ) {
        self.tile = tile
        self.network = network
        self.gateway = gateway
        self.antenna = antenna
        self.spreadingFactor = spreadingFactor
        self.buckets = buckets
        self.best = best
        self.firstAt = firstAt
        self.lastAt = lastAt
        self.movedAt = movedAt
    }

    public var receptions: Int { buckets.reduce(0, +) }
}
