import GRDB

/// The names the coverage queries give their columns (a cell's, a gateway's, a beam's figures).
enum CoverageQueryColumns: String, ColumnExpression {
    case antenna
    case attempts
    case bearing
    case best
    case checked
    case answered
    case margin
    case estimated
    case cells
    case distance2nd = "distance_2nd"
    case distanceMax = "distance_max"
    case firstAt = "first_at"
    case gateway
    case gateways
    case heard
    case known
    case lastAt = "last_at"
    case level
    case mapped
    case n
    case network
    case notHeard = "not_heard"
    case reason
    case receptions
    case samples
    case sf
    case tx
    case ty
    case unknown
    case x
    case y
    case maxLat = "max_lat"
    case maxLon = "max_lon"
    case maxAt = "max_at"
    case movedAt = "moved_at"
    case lat
    case lon
    case signal
}
