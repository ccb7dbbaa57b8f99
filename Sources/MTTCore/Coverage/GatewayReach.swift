/// How far a gateway antenna heard you in each direction, as TTN Mapper's radar: per one-degree
/// bearing from the gateway and per level, the farthest and second-farthest reception.
public struct GatewayReach: Sendable, Hashable {
    public struct Beam: Sendable, Hashable {
        public var level: ReachLevel
        /// Whole degrees from north, 0…359.
        public var bearing: Int
        public var samples: Int
        public var farthest: Double
        public var secondFarthest: Double

        public init(level: ReachLevel, bearing: Int, samples: Int, farthest: Double, secondFarthest: Double) {
            self.level = level
            self.bearing = bearing
            self.samples = samples
            self.farthest = farthest
            self.secondFarthest = secondFarthest
        }
    }

    public var network: String
    public var gateway: String
    public var antenna: Int
    /// Where the gateway says it is (reach needs it: it is measured from there).
    public var position: GeoPoint
    public var beams: [Beam]

    public init(network: String, gateway: String, antenna: Int, position: GeoPoint, beams: [Beam]) {
        self.network = network
        self.gateway = gateway
        self.antenna = antenna
        self.position = position
        self.beams = beams
    }

    /// The level's reach on each of the 360 bearings: its farthest reception, or where none was
    /// at this level, the next stronger level's (0 where no stronger one has any either).
    public func distances(_ level: ReachLevel) -> [Double] {
        var byLevel = [[Double?]](repeating: [Double?](repeating: nil, count: 360), count: ReachLevel.allCases.count)
        for beam in beams where (0..<360).contains(beam.bearing) {
            byLevel[beam.level.rawValue][beam.bearing] = beam.farthest
        }
        var reach = [Double](repeating: 0, count: 360)
        for l in 0...level.rawValue {
            for b in 0..<360 {
                if let d = byLevel[l][b] { reach[b] = d }
            }
        }
        return reach
    }

    /// The level's outline: a point on each bearing at its reach, counter-clockwise (as GeoJSON
    /// and GeoPackage want an outer ring) and closed (first point repeated).
    public func polygon(_ level: ReachLevel) -> [GeoPoint] {
        let ring = distances(level).enumerated().reversed().map { bearing, metres in
            metres > 0 ? position.destination(metres: metres, bearing: Double(bearing)) : position
        }
        return ring + [ring[0]]
    }

    /// Whether any reception is of this level or a stronger one: a polygon worth drawing.
    public func reaches(_ level: ReachLevel) -> Bool {
        beams.contains { $0.level.rawValue <= level.rawValue }
    }
}
