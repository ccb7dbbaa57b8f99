/// A gateway that began to report a position more than `distance` from the place it reported
/// before (TTN Mapper's and Helium users' ask, SPEC §7): its coverage is what it has heard since;
/// the cells from before are kept apart as history (`coverage_cells_moved`, the exports' `moved`
/// layer) and drawn nowhere else.
///
/// The rule, read from the receptions of placed samples in time order (a reception left out by
/// `CoverageRules` says nothing of where its gateway is): the first position is the gateway's
/// first place; a later one within `distance` of the current place is the same place (a GPS
/// gateway's jitter); one farther away starts a new place at its time. Positions are compared
/// with the place's first position, not with the last one, so that a slow drift of many small
/// steps is not a move while a jump is.
public struct GatewayMove: Sendable, Hashable, Encodable {
    /// Farther than this from where it was, a gateway has moved: beyond a GPS's error and a
    /// console position typed by hand, short of the smallest change that alters coverage.
    public static let distance = 100.0

    public var network: String
    public var gateway: String
    public var movedAt: Timestamp
    public var from: GeoPoint
    public var to: GeoPoint

    public init(network: String, gateway: String, movedAt: Timestamp, from: GeoPoint, to: GeoPoint) {
        self.network = network
        self.gateway = gateway
        self.movedAt = movedAt
        self.from = from
        self.to = to
    }

    /// How far it moved, in metres.
    public var metres: Double { from.distance(to: to) }

    enum CodingKeys: String, CodingKey {
        case network, gateway, movedAt = "moved_at", fromLat = "from_lat", fromLon = "from_lon", lat, lon, metres
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(network, forKey: .network)
        try c.encode(gateway, forKey: .gateway)
        try c.encode(RFC3339.string(movedAt, fractionDigits: 3), forKey: .movedAt)
        try c.encode(from.latitude, forKey: .fromLat)
        try c.encode(from.longitude, forKey: .fromLon)
        try c.encode(to.latitude, forKey: .lat)
        try c.encode(to.longitude, forKey: .lon)
        try c.encode(metres.rounded(), forKey: .metres)
    }

    /// One place of a gateway: where it was from `since` (nanoseconds; 0 for its first place).
    struct Place: Equatable {
        var since: Int64
        var at: GeoPoint

        /// Whether a reception reporting `position` at `time` may be counted in this place
        /// without reading the gateway's positions again: it is not older than the place and
        /// reports the same place.
        func holds(_ position: GeoPoint?, at time: Int64) -> Bool {
            guard time >= since else { return false }
            guard let position else { return true }
            return position.distance(to: at) <= GatewayMove.distance
        }
    }

    /// A gateway's places from its positions in time order, by the rule above.
    static func places(from positions: some Sequence<(time: Int64, at: GeoPoint)>) -> [Place] {
        var places: [Place] = []
        for p in positions {
            guard let current = places.last else {
                places.append(Place(since: 0, at: p.at))
                continue
            }
            if p.at.distance(to: current.at) > distance { places.append(Place(since: p.time, at: p.at)) }
        }
        return places
    }
}
