import FoundationEssentials
import Glibc

/// Where a gateway that keeps its position to itself probably is: the centroid of its strongest
/// receptions' places, each weighted by its received power (a reception 10 dB weaker weighs a
/// tenth), so the places nearest the gateway lead.
public enum GatewayPosition {
    /// How many of the strongest receptions make the estimate.
    public static let receptions = 10

    public static func estimate(_ heardAt: [(point: GeoPoint, signal: Double)]) -> GeoPoint? {
        let strongest = heardAt.sorted { $0.signal > $1.signal }.prefix(receptions)
        guard let top = strongest.first?.signal else { return nil }
        var weights = 0.0, latitude = 0.0, longitude = 0.0
        for reception in strongest {
            let w = pow(10, (reception.signal - top) / 10)
            weights += w
            latitude += w * reception.point.latitude
            longitude += w * reception.point.longitude
        }
        return GeoPoint(latitude: latitude / weights, longitude: longitude / weights)
    }
}
