/// What changed between two windows of time ("did the new gateway help?"): the cells heard since a
/// time that nobody heard before it, and the cells heard before that were mapped again since and
/// not heard any more. Cells are counted by the sessions that touch each window (a cell row spans
/// its session), the gateway filter narrows both.
public struct CoverageDiff: Sendable, Hashable, Encodable {
    public var since: Timestamp
    public var until: Timestamp?
    /// Heard since, never heard before.
    public var newlyHeard: [MapTile]
    /// Heard before; mapped since, and heard by none since.
    public var lost: [MapTile]
    /// Heard before and since.
    public var stillHeard: Int
    /// Of the newly heard cells, how many each gateway heard.
    public var newlyHeardBy: [String: Int]

    enum CodingKeys: String, CodingKey {
        case since, until, newlyHeard = "newly_heard", lost, stillHeard = "still_heard", newlyHeardBy = "newly_heard_by"
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(RFC3339.string(since, fractionDigits: 0), forKey: .since)
        try c.encode(until.map { RFC3339.string($0, fractionDigits: 0) }, forKey: .until)
        try c.encode(newlyHeard.map { [$0.x, $0.y] }, forKey: .newlyHeard)
        try c.encode(lost.map { [$0.x, $0.y] }, forKey: .lost)
        try c.encode(stillHeard, forKey: .stillHeard)
        try c.encode(newlyHeardBy, forKey: .newlyHeardBy)
    }
}
