/// What a community map's status block shows: each mapper's totals and where the coverage is.
public struct CommunityStatus: Sendable, Hashable, Encodable {
    public struct Mapper: Sendable, Hashable, Encodable {
        public var name: String
        public var sessions: Int
        public var attempts: Int
        /// Attempts the network heard.
        public var heard: Int
        public var samples: Int
        /// The newest record the mapper uploaded (a sample's or attempt's time), nil before any.
        public var lastRecord: Timestamp?

        public init(name: String, sessions: Int, attempts: Int, heard: Int, samples: Int, lastRecord: Timestamp?) {
            self.name = name
            self.sessions = sessions
            self.attempts = attempts
            self.heard = heard
            self.samples = samples
            self.lastRecord = lastRecord
        }

        enum CodingKeys: String, CodingKey {
            case name, sessions, attempts, heard, samples, lastRecord = "last_record"
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(name, forKey: .name)
            try c.encode(sessions, forKey: .sessions)
            try c.encode(attempts, forKey: .attempts)
            try c.encode(heard, forKey: .heard)
            try c.encode(samples, forKey: .samples)
            try c.encode(lastRecord.map { RFC3339.string($0, fractionDigits: 0) }, forKey: .lastRecord)
        }
    }

    /// A standby's view of how fresh its copy is.
    public struct Replica: Sendable, Hashable, Encodable {
        /// Seconds the copy is behind the primary: 0 when it has replayed all it received, else
        /// since the last transaction it replayed was committed on the primary (nil before any).
        public var lagSeconds: Double?
        /// When the last transaction it replayed was committed on the primary.
        public var replayedAt: Timestamp?

        public init(lagSeconds: Double?, replayedAt: Timestamp?) {
            self.lagSeconds = lagSeconds
            self.replayedAt = replayedAt
        }

        enum CodingKeys: String, CodingKey { case lagSeconds = "lag_s", replayedAt = "replayed_at" }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(lagSeconds.map { $0.rounded(toPlaces: 1) }, forKey: .lagSeconds)
            try c.encode(replayedAt.map { RFC3339.string($0, fractionDigits: 0) }, forKey: .replayedAt)
        }
    }

    public var mappers: [Mapper]
    /// Nil on the primary; a standby's freshness.
    public var replica: Replica?
    /// Zoom-19 cells mapped (heard, or sent from), and heard.
    public var cells: Int
    public var heardCells: Int
    public var gateways: Int
    /// West, south, east, north of the mapped cells: where the map opens. Nil when none.
    public var bounds: [Double]?
    /// When the database last made its kept map without the silent gateways (RFC 3339), which the
    /// map shows by default: nil where it keeps none.
    public var withoutSilentAsOf: String?

    public init(mappers: [Mapper], cells: Int, heardCells: Int, gateways: Int, bounds: [Double]?, replica: Replica? = nil) {
        self.mappers = mappers
        self.replica = replica
        self.cells = cells
        self.heardCells = heardCells
        self.gateways = gateways
        self.bounds = bounds
    }

    enum CodingKeys: String, CodingKey {
        case mappers, cells, heardCells = "heard_cells", gateways, bounds, replica, withoutSilentAsOf = "without_silent_as_of"
    }
}
