/// One gateway antenna's receptions in one zoom-19 cell (over the sessions and SFs a filter selects):
/// a row of TTN Mapper's grid, with its buckets.
public struct GatewayCell: Sendable, Hashable {
    public var tile: MapTile
    public var network: String
    public var gateway: String
    public var antenna: Int
    /// Receptions per bucket, indexed by `SignalBucket.rawValue`.
    public var buckets: [Int]
    public var best: Double
    public var firstAt: Timestamp
    public var lastAt: Timestamp
}
