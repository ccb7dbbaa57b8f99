import FoundationEssentials
import Glibc

extension GeoPoint {
    public static let earthRadius = 6_371_008.8

    /// Great-circle distance in metres (haversine): exact enough for "moved more than 10 m" and
    /// for path loss over a few kilometres.
    /// - Parameter radius: the Earth's mean radius unless a protocol fixes another (the field
    ///   tester's reply takes 6,371,000 m).
    public func distance(to other: GeoPoint, radius: Double = earthRadius) -> Double {
        let φ1 = latitude * .pi / 180
        let φ2 = other.latitude * .pi / 180
        let dφ = φ2 - φ1
        let dλ = (other.longitude - longitude) * .pi / 180
        let a = sin(dφ / 2) * sin(dφ / 2) + cos(φ1) * cos(φ2) * sin(dλ / 2) * sin(dλ / 2)
        return 2 * radius * asin(min(1, a.squareRoot()))
    }

    /// The initial great-circle bearing to `other`, in degrees from north, 0 ≤ b < 360.
    public func bearing(to other: GeoPoint) -> Double {
        let φ1 = latitude * .pi / 180
        let φ2 = other.latitude * .pi / 180
        let dλ = (other.longitude - longitude) * .pi / 180
        let θ = atan2(sin(dλ) * cos(φ2), cos(φ1) * sin(φ2) - sin(φ1) * cos(φ2) * cos(dλ)) * 180 / .pi
        let b = θ < 0 ? θ + 360 : θ
        return b >= 360 ? 0 : b
    }

    /// The point `metres` away along a great circle starting on `bearing` (degrees from north).
    public func destination(metres: Double, bearing: Double) -> GeoPoint {
        let δ = metres / Self.earthRadius, θ = bearing * .pi / 180
        let φ1 = latitude * .pi / 180, λ1 = longitude * .pi / 180
        let φ2 = asin(sin(φ1) * cos(δ) + cos(φ1) * sin(δ) * cos(θ))
        let λ2 = λ1 + atan2(sin(θ) * sin(δ) * cos(φ1), cos(δ) - sin(φ1) * sin(φ2))
        var longitude = λ2 * 180 / .pi
        if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
        return GeoPoint(latitude: φ2 * 180 / .pi, longitude: longitude)
    }

    /// The point `metres` away on a bearing (degrees from north), on a locally flat earth.
    public func offset(metres: Double, bearing: Double) -> GeoPoint {
        let θ = bearing * .pi / 180
        let dLat = metres * cos(θ) / 111_320
        let dLon = metres * sin(θ) / (111_320 * cos(latitude * .pi / 180))
        return GeoPoint(latitude: latitude + dLat, longitude: longitude + dLon, altitude: altitude)
    }

    /// The point a `fraction` (0…1) of the way to `other`, altitude too when both have one: linear,
    /// as a track between two fixes a few seconds or minutes apart is drawn.
    public func interpolated(to other: GeoPoint, fraction f: Double) -> GeoPoint {
        let height: Double? = if let a = altitude, let b = other.altitude { a + (b - a) * f } else { nil }
        return GeoPoint(
            latitude: latitude + (other.latitude - latitude) * f, longitude: longitude + (other.longitude - longitude) * f, altitude: height)
    }
}
