import Glibc

/// Whether a gateway antenna's reported position agrees with its own receptions (SPEC §11: real
/// catalogues hold positions that are owner-entered, rounded, or a previous site).
///
/// The rule: a log-distance line is fitted through the antenna's receptions from each place on a
/// grid around the reported position (15 km either way, 500 m apart, then 1 km around the best,
/// 100 m apart), and the place whose line leaves the least scatter is where the receptions say the
/// antenna is. The reported position is contradicted when that place is more than 1 km from it
/// and its scatter is at least 1.5 dB and 15 % smaller: a real gateway's receptions are explained
/// nearly as well from anywhere within a few hundred metres of it, so smaller differences are noise.
public struct GatewayPositionCheck: Sendable, Hashable, Encodable {
    public var key: AntennaKey
    public var reported: GeoPoint
    /// Where the receptions put it.
    public var likely: GeoPoint
    /// Metres between the two.
    public var distance: Double
    /// The scatter about the line (dB) from the reported position and from the likely one.
    public var sigmaReported: Double
    public var sigmaLikely: Double
    public var contradicted: Bool

    /// Receptions a check needs: fewer say too little of where the antenna is.
    public static let minimumReceptions = 30
    static let searchRadius = 15_000.0, coarseStep = 500.0, fineRadius = 1_000.0, fineStep = 100.0
    static let farther = 1_000.0, betterBy = 1.5, betterShare = 0.85

    enum CodingKeys: String, CodingKey {
        case gateway, network, antenna, reported, likely, distance = "distance_m", sigmaReported = "sigma_reported", sigmaLikely = "sigma_likely", contradicted
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(key.gateway, forKey: .gateway)
        try c.encode(key.network, forKey: .network)
        try c.encode(key.antenna, forKey: .antenna)
        try c.encode([reported.latitude, reported.longitude], forKey: .reported)
        try c.encode([likely.latitude.rounded(toPlaces: 5), likely.longitude.rounded(toPlaces: 5)], forKey: .likely)
        try c.encode(distance.rounded(), forKey: .distance)
        try c.encode(sigmaReported.rounded(toPlaces: 2), forKey: .sigmaReported)
        try c.encode(sigmaLikely.rounded(toPlaces: 2), forKey: .sigmaLikely)
        try c.encode(contradicted, forKey: .contradicted)
    }

    /// What each gateway with a contradicted position is told, by gateway id (any of its antennas),
    /// from the antennas' data: what the map and the exports show beside it.
    public static func contradicted(_ data: [AntennaData]) -> [String: String] {
        Dictionary(data.compactMap(check).filter(\.contradicted).map { ($0.key.gateway, $0.text) }) { first, _ in first }
    }

    /// The checks of every antenna of `filter` that has a reported position and enough receptions.
    public static func checks(_ store: Store, _ filter: CoverageFilter) throws -> [GatewayPositionCheck] {
        try store.coverage.predictionData(filter).compactMap(check)
    }

    /// Checks an antenna with a reported position and enough receptions; nil otherwise.
    public static func check(_ antenna: AntennaData) -> GatewayPositionCheck? {
        guard let reported = antenna.position, !antenna.positionEstimated else { return nil }
        var heard = antenna.observations.compactMap { o in o.signal.map { (o.point, $0) } }
        guard heard.count >= minimumReceptions else { return nil }
        // A few thousand receptions say where as well as all of them, at a fraction of the cost.
        if heard.count > 3_000 {
            let stride = heard.count / 3_000
            heard = Swift.stride(from: 0, to: heard.count, by: stride).map { heard[$0] }
        }
        let places = heard.map { ResidualField.metres($0.0, from: reported) }, signals = heard.map(\.1)
        func scatter(_ x: Double, _ y: Double) -> Double {
            let logs = places.map { p in log10(max(((p.0 - x) * (p.0 - x) + (p.1 - y) * (p.1 - y)).squareRoot() / 1000, PathLossFit.nearest)) }
            let fit = PathLossFit.line(zip(logs, signals).map { ($0, 1, $1) })
            let squares = zip(logs, signals).reduce(0.0) { t, p in let d = p.1 - (fit.intercept - fit.slope * p.0); return t + d * d }
            return (squares / Double(signals.count)).squareRoot()
        }
        func search(around centre: (Double, Double), radius: Double, step: Double) -> (x: Double, y: Double, sigma: Double) {
            var best = (x: centre.0, y: centre.1, sigma: scatter(centre.0, centre.1))
            let n = Int(radius / step)
            for i in -n...n {
                for j in -n...n {
                    let x = centre.0 + Double(i) * step, y = centre.1 + Double(j) * step
                    let sigma = scatter(x, y)
                    if sigma < best.sigma { best = (x, y, sigma) }
                }
            }
            return best
        }
        let coarse = search(around: (0, 0), radius: searchRadius, step: coarseStep)
        let fine = search(around: (coarse.x, coarse.y), radius: fineRadius, step: fineStep)
        let atReported = scatter(0, 0)
        let likely = reported.offset(metres: fine.y, bearing: 0).offset(metres: fine.x, bearing: 90)
        let distance = (fine.x * fine.x + fine.y * fine.y).squareRoot()
        return GatewayPositionCheck(
            key: antenna.key, reported: reported, likely: likely, distance: distance, sigmaReported: atReported, sigmaLikely: fine.sigma,
            contradicted: distance > farther && fine.sigma <= atReported - betterBy && fine.sigma <= atReported * betterShare)
    }

    /// "its receptions fit 52.11000, 5.15000 better, 2.3 km away (σ 6.1 dB against 9.4): check the
    /// position it reports", or that they agree.
    public var text: String {
        let km = (distance / 1000).rounded(toPlaces: 1).plainText
        let place = "\(likely.latitude.rounded(toPlaces: 5).plainText), \(likely.longitude.rounded(toPlaces: 5).plainText)"
        let figures = "σ \(sigmaLikely.rounded(toPlaces: 1).plainText) dB against \(sigmaReported.rounded(toPlaces: 1).plainText)"
        return contradicted
            ? "its receptions fit \(place) better, \(km) km away (\(figures)): check the position it reports"
            : "its receptions agree with the position it reports (best fit \(km) km away, \(figures))"
    }
}
