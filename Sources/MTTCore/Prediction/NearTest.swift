import Glibc

/// Whether a place lies within `metres` of `centre`: a box in degrees first, the great circle
/// only for what is inside it (a gateway's tens of thousands of places, most far away).
struct NearTest {
    let centre: GeoPoint, metres: Double, dLat: Double, dLon: Double

    init(_ centre: GeoPoint, metres: Double) {
        self.centre = centre
        self.metres = metres
        // A degree of latitude is 110.6 km at least; one of longitude that times cos(lat), taken
        // at the box's edge nearest the pole, with a margin.
        dLat = metres / 110_000 * 1.01
        let edge = min(abs(centre.latitude) + dLat, 89.9)
        dLon = metres / (111_320 * cos(edge * .pi / 180)) * 1.01
    }

    func holds(_ p: GeoPoint) -> Bool {
        let east = abs(p.longitude - centre.longitude)
        return abs(p.latitude - centre.latitude) <= dLat && min(east, 360 - east) <= dLon && centre.distance(to: p) <= metres
    }
}
