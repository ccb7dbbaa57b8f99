/// TTN Mapper's checks for its main map, applied before upload so a poor position is kept back
/// rather than sent and dropped. A figure the GPS did not report is not checked (NMEA gives no
/// error estimate, for one); the position checks always apply.
public struct TTNMapperQualityGate: Sendable, Hashable {
    public var minimumSatellites = 4
    public var maximumAccuracy = 15.0
    public var maximumHDOP = 5.0

    public init() {}

    /// Why a sample may not go to the main map, or nil when it may.
    public func reason(against position: GeoPoint, fix: Fix?) -> String? {
        var failures: [String] = []
        if let satellites = fix?.satellites, satellites < minimumSatellites {
            failures.append("\(satellites) satellites (needs \(minimumSatellites))")
        }
        if let eph = fix?.eph, eph > maximumAccuracy {
            failures.append("accuracy \(eph.plainText) m (needs ≤ \(maximumAccuracy.plainText) m)")
        }
        if let hdop = fix?.hdop, hdop > maximumHDOP {
            failures.append("HDOP \(hdop.plainText) (needs ≤ \(maximumHDOP.plainText))")
        }
        let lat = position.latitude, lon = position.longitude
        if !(abs(lat) < 89) || !(abs(lon) < 180) {
            failures.append("position out of range")
        } else if abs(lat) < 1 && abs(lon) < 1 {
            failures.append("position near 0,0")
        } else if lat == lon {
            failures.append("latitude equals longitude")
        }
        return failures.isEmpty ? nil : failures.joined(separator: ", ")
    }
}
