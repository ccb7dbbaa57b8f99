/// A position on the WGS84 ellipsoid in degrees, with an optional altitude in metres.
public struct GeoPoint: Sendable, Hashable, Codable {
    public var latitude: Double
    public var longitude: Double
    public var altitude: Double?

    public init(latitude: Double, longitude: Double, altitude: Double? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
    }

    /// A place given by whoever: nil unless the latitude is within ±90° and the longitude within
    /// ±180° (which NaN and the infinities are not).
    public init?(checkingLatitude latitude: Double, longitude: Double, altitude: Double? = nil) {
        guard PhysicalLimits.isPlace(latitude: latitude, longitude: longitude) else { return nil }
        self.init(latitude: latitude, longitude: longitude, altitude: altitude)
    }
}
