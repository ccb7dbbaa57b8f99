/// The MapTheThings fixed-point scale: a coordinate becomes a signed 24-bit integer,
/// latitude × 93206 and longitude × 46603 (≈ 2²³/90 and 2²³/180), truncated toward zero as the
/// iOS app's `Int32(lat * 93206)` did, so mtt's packets decode to the same cells on the server.
enum CoordinateScale {
    static let latitude = 93206.0
    static let longitude = 46603.0

    static func raw(latitude: Double) -> Int32 { Int32(latitude * Self.latitude) }
    static func raw(longitude: Double) -> Int32 { Int32(longitude * Self.longitude) }

    static func latitude(raw: Int32) -> Double { Double(raw) / Self.latitude }
    static func longitude(raw: Int32) -> Double { Double(raw) / Self.longitude }
}
