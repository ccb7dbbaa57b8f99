/// The attempts sent from one zoom-19 cell at one spreading factor, over the sessions a filter
/// selects.
public struct AttemptCell: Sendable, Hashable {
    public var tile: MapTile
    public var spreadingFactor: Int
    public var attempts: Int
    /// How many of them the network heard.
    public var heard: Int
    /// Frames trackers sent here that nobody heard, estimated from their frame counters.
    public var estimated: Int
    /// Whether any session sending here had a network source: if not, "not heard" cannot be said.
    public var networkKnown: Bool
    public var firstAt: Timestamp
    public var lastAt: Timestamp
}
