/// What counts towards coverage: TTN Mapper's data rules, so cells compare with theirs.
public enum CoverageRules {
    /// A reception farther than this from its gateway is an error (a gateway's wrong position, a
    /// GPS jump), not coverage.
    public static let farthestReception = 200_000.0

    /// Why a reception at `sample` does not count, or nil when it does.
    public enum LeftOut: String, Sendable, CaseIterable, Codable {
        /// |lat| > 85, or 0,0: no real place.
        case position
        /// No RSSI: nothing to grade.
        case noSignal = "no signal"
        /// More than 200 km from the gateway's position.
        case tooFar = "farther than 200 km"
        /// Exactly at the gateway's position: a gateway that reports its own position as the sample's.
        case atTheGateway = "at the gateway"
    }

    /// Whether a sample at `point` can count at all.
    public static func counts(_ point: GeoPoint) -> Bool {
        abs(point.latitude) <= 85 && !(point.latitude == 0 && point.longitude == 0)
    }

    /// Why a reception with `rssi` of a gateway at `gateway` (nil when it keeps its position to
    /// itself) heard at `sample` is left out, or nil.
    public static func leftOut(sample: GeoPoint, rssi: Double?, gateway: GeoPoint?) -> LeftOut? {
        guard counts(sample) else { return .position }
        guard rssi != nil else { return .noSignal }
        guard let gateway else { return nil }
        let distance = sample.distance(to: gateway)
        if distance == 0 { return .atTheGateway }
        if distance > farthestReception { return .tooFar }
        return nil
    }
}
