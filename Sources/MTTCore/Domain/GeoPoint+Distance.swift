import FoundationEssentials
import Glibc

extension GeoPoint {
    static let earthRadius = 6_371_008.8

    /// Great-circle distance in metres (haversine): exact enough for "moved more than 10 m" and
    /// for path loss over a few kilometres.
    public func distance(to other: GeoPoint) -> Double {
        let φ1 = latitude * .pi / 180
        let φ2 = other.latitude * .pi / 180
        let dφ = φ2 - φ1
        let dλ = (other.longitude - longitude) * .pi / 180
        let a = sin(dφ / 2) * sin(dφ / 2) + cos(φ1) * cos(φ2) * sin(dλ / 2) * sin(dλ / 2)
        return 2 * Self.earthRadius * asin(min(1, a.squareRoot()))
    }

    /// The point `metres` away on a bearing (degrees from north), on a locally flat earth.
    public func offset(metres: Double, bearing: Double) -> GeoPoint {
        let θ = bearing * .pi / 180
        let dLat = metres * cos(θ) / 111_320
        let dLon = metres * sin(θ) / (111_320 * cos(latitude * .pi / 180))
        return GeoPoint(latitude: latitude + dLat, longitude: longitude + dLon, altitude: altitude)
    }
}
