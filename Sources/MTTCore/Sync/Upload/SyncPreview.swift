/// What a sync would do for one target, without sending anything (`mtt sync --dry-run`).
public struct SyncPreview: Sendable, Hashable, Encodable {
    public var target: SyncTarget
    /// Records that would be sent, by kind.
    public var wouldSend: [SyncRecordKind: Int] = [:]
    /// Records the target's own rules would hold back (TTN Mapper's quality gate): how many, and
    /// the first few reasons.
    public var wouldHold = 0
    public var holdReasons: [String] = []
    /// Records of simulated sessions, and of sessions the user excluded, held back by the scope.
    public var simulated = 0
    public var excluded = 0
    /// Why the target could not be uploaded to at all (no credentials, a public server with
    /// --include-simulated).
    public var problem: String?

    public init(target: SyncTarget) {
        self.target = target
    }

    public var sendCount: Int { wouldSend.values.reduce(0, +) }

    enum CodingKeys: String, CodingKey {
        case target, send = "would_send", hold = "would_hold", holdReasons = "hold_reasons"
        case simulated = "held_simulated", excluded = "held_excluded", problem
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(target, forKey: .target)
        try c.encode(Dictionary(uniqueKeysWithValues: wouldSend.map { ($0.key.rawValue, $0.value) }), forKey: .send)
        try c.encode(wouldHold, forKey: .hold)
        try c.encode(holdReasons, forKey: .holdReasons)
        try c.encode(simulated, forKey: .simulated)
        try c.encode(excluded, forKey: .excluded)
        try c.encodeIfPresent(problem, forKey: .problem)
    }
}
