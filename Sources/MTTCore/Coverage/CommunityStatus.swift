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

    public var mappers: [Mapper]
    /// Zoom-19 cells mapped (heard, or sent from), and heard.
    public var cells: Int
    public var heardCells: Int
    public var gateways: Int
    /// West, south, east, north of the mapped cells: where the map opens. Nil when none.
    public var bounds: [Double]?

    public init(mappers: [Mapper], cells: Int, heardCells: Int, gateways: Int, bounds: [Double]?) {
        self.mappers = mappers
        self.cells = cells
        self.heardCells = heardCells
        self.gateways = gateways
        self.bounds = bounds
    }

    enum CodingKeys: String, CodingKey {
        case mappers, cells, heardCells = "heard_cells", gateways, bounds
    }
}
