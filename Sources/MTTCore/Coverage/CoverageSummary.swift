/// What `mtt coverage` says: the area mapped and heard, and each gateway antenna's part in it.
public struct CoverageSummary: Sendable, Hashable, Encodable {
    public struct Area: Sendable, Hashable, Encodable {
        /// Cells with a sample or an attempt.
        public var mapped = 0
        /// Cells at least one gateway heard.
        public var heard = 0
        /// Cells with attempts sent where the network's side is known and nobody heard any.
        public var mappedNotHeard = 0
        /// Cells with attempts only from sessions with no network source (no MQTT, not fetched):
        /// nobody can say whether they were heard.
        public var unknown = 0
        /// Cells no gateway's uplink reached where a link check was answered (`--linkcheck`).
        public var heardByLinkCheck = 0

        enum CodingKeys: String, CodingKey {
            case mapped, heard, mappedNotHeard = "mapped_not_heard", unknown, heardByLinkCheck = "heard_by_linkcheck"
        }
    }

    /// What the newest session in the selection added to the sessions before it.
    public struct Change: Sendable, Hashable, Encodable {
        public var session: Int64
        public var newlyMapped: Int
        public var newlyHeard: Int

        enum CodingKeys: String, CodingKey {
            case session, newlyMapped = "newly_mapped", newlyHeard = "newly_heard"
        }
    }

    public struct Farthest: Sendable, Hashable, Encodable {
        public var metres: Double
        public var bearing: Double
        public var at: GeoPoint
        public var time: Timestamp

        public init(metres: Double, bearing: Double, at: GeoPoint, time: Timestamp) {
            self.metres = metres
            self.bearing = bearing
            self.at = at
            self.time = time
        }

        enum CodingKeys: String, CodingKey {
            case metres, bearing, lat, lon, time
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(metres, forKey: .metres)
            try c.encode(bearing, forKey: .bearing)
            try c.encode(at.latitude, forKey: .lat)
            try c.encode(at.longitude, forKey: .lon)
            try c.encode(RFC3339.string(time, fractionDigits: 3), forKey: .time)
        }
    }

    public struct Gateway: Sendable, Hashable, Encodable {
        public var network: String
        public var gateway: String
        public var antenna: Int
        public var cells: Int
        public var receptions: Int
        /// The best RSSI + min(SNR, 0).
        public var best: Double
        public var firstHeard: Timestamp
        public var lastHeard: Timestamp
        public var position: GeoPoint?
        /// The position is mtt's estimate: the gateway does not publish one.
        public var estimated: Bool
        /// Of all records: a filter narrows the counts, not this.
        public var farthest: Farthest?

        public init(
            network: String, gateway: String, antenna: Int, cells: Int, receptions: Int, best: Double, firstHeard: Timestamp, lastHeard: Timestamp,
            position: GeoPoint?, estimated: Bool, farthest: Farthest?
        ) {
            self.network = network
            self.gateway = gateway
            self.antenna = antenna
            self.cells = cells
            self.receptions = receptions
            self.best = best
            self.firstHeard = firstHeard
            self.lastHeard = lastHeard
            self.position = position
            self.estimated = estimated
            self.farthest = farthest
        }

        enum CodingKeys: String, CodingKey {
            case network, gateway, antenna, cells, receptions, best, firstHeard = "first_heard", lastHeard = "last_heard", lat, lon, estimated, farthest
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(network, forKey: .network)
            try c.encode(gateway, forKey: .gateway)
            try c.encode(antenna, forKey: .antenna)
            try c.encode(cells, forKey: .cells)
            try c.encode(receptions, forKey: .receptions)
            try c.encode(best, forKey: .best)
            try c.encode(RFC3339.string(firstHeard, fractionDigits: 3), forKey: .firstHeard)
            try c.encode(RFC3339.string(lastHeard, fractionDigits: 3), forKey: .lastHeard)
            try c.encode(position?.latitude, forKey: .lat)
            try c.encode(position?.longitude, forKey: .lon)
            try c.encode(estimated, forKey: .estimated)
            try c.encode(farthest, forKey: .farthest)
        }
    }

    public var area = Area()
    public var latest: Change?
    public var gateways: [Gateway] = []
    /// Receptions left out by TTN Mapper's rules, by reason.
    public var leftOut: [String: Int] = [:]
    /// With one gateway asked for: whether its reported position agrees with its receptions.
    public var positionChecks: [GatewayPositionCheck]?
    /// With one gateway asked for: the places it moved from (`GatewayMove`), oldest first.
    public var moves: [GatewayMove]?

    enum CodingKeys: String, CodingKey {
        case area, latest = "latest_session", gateways, leftOut = "left_out", positionChecks = "position_checks", moves
    }
}
