/// One gateway antenna, as the predictions name it.
public struct AntennaKey: Sendable, Hashable, Comparable, Encodable {
    public var network: String
    public var gateway: String
    public var antenna: Int

    public init(network: String, gateway: String, antenna: Int) {
        self.network = network
        self.gateway = gateway
        self.antenna = antenna
    }

    public static func < (a: AntennaKey, b: AntennaKey) -> Bool {
        (a.gateway, a.network, a.antenna) < (b.gateway, b.network, b.antenna)
    }
}

/// What one antenna was seen to do at one place: heard with a signal (RSSI + min(SNR, 0)), or not
/// heard although the place was mapped in its reach (an attempt nobody heard, an uplink others heard).
public struct AntennaObservation: Sendable, Hashable {
    public var point: GeoPoint
    /// The signal heard; nil when the antenna did not hear.
    public var signal: Double?
    public var spreadingFactor: Int

    public init(point: GeoPoint, signal: Double?, spreadingFactor: Int) {
        self.point = point
        self.signal = signal
        self.spreadingFactor = spreadingFactor
    }

    /// The point it gives a line fitted for an antenna at `position`: the signal heard, or the
    /// floor it was under (`floors`, of the antenna's data).
    func fitPoint(from position: GeoPoint, floors: SignalFloors) -> PathLossFit.Point {
        PathLossFit.Point(kilometres: position.distance(to: point) / 1000, value: signal ?? floors[spreadingFactor], heard: signal != nil)
    }
}

/// An antenna's model: its line (`PathLossFit`, censored), the residual field between its
/// measurements (`ResidualField`), and how far its receptions reach; or why it has none.
public struct AntennaModel: Sendable {
    public let key: AntennaKey
    public let position: GeoPoint
    public let fit: PathLossFit
    let field: ResidualField
    /// The farthest reception, km: predictions stop a little beyond it.
    public let reach: Double
    public let receptions: Int
    /// The SF most of its observations were sent at: P(heard) is for it unless asked otherwise.
    public let spreadingFactor: Int
    /// Where its receptions stop, per SF.
    let floors: SignalFloors

    /// Fewer receptions than this say too little of a line and its scatter to predict with.
    public static let minimumReceptions = 20

    /// How far past the farthest reception a prediction goes: a quarter more, and 200 m.
    public static func limit(reach: Double) -> Double { reach * 1.25 + 0.2 }

    /// Fits the antenna at `position` to what it was seen to do; throws the reason it cannot.
    public init(key: AntennaKey, position: GeoPoint, observations: [AntennaObservation]) throws(PredictionRefusal) {
        let heard = observations.filter { $0.signal != nil }
        guard heard.count >= Self.minimumReceptions else {
            throw PredictionRefusal("\(heard.count) receptions, fewer than the \(Self.minimumReceptions) a model needs")
        }
        let floors = SignalFloors(observations)
        let points = observations.map { $0.fitPoint(from: position, floors: floors) }
        guard let fit = PathLossFit.fit(points, censored: true) else { throw PredictionRefusal("no line fits its receptions") }
        self.key = key
        self.position = position
        self.fit = fit
        self.floors = floors
        receptions = heard.count
        reach = points.filter(\.heard).map(\.kilometres).max() ?? 0
        // The field is read from the receptions well above their floor (the line 1.5 σ over it):
        // nearer it only the strong ones exist, whose scatter the cut narrows, and residuals that
        // agree for that reason alone read as shadowing shared by neighbours (intervals too narrow
        // by a quarter on a simulated drive).
        var clear: [(point: GeoPoint, residual: Double)] = []
        for (o, p) in zip(heard, points.filter(\.heard)) {
            let mean = fit.mean(kilometres: p.kilometres)
            if mean - floors[o.spreadingFactor] >= 1.5 * fit.sigma { clear.append((o.point, o.signal! - mean)) }
        }
        field = ResidualField(points: clear.map(\.point), residuals: clear.map(\.residual), variance: fit.sigma * fit.sigma, origin: position)
        var counts: [Int: Int] = [:]
        for o in observations { counts[o.spreadingFactor, default: 0] += 1 }
        spreadingFactor = counts.max { ($0.value, -$0.key) < ($1.value, -$1.key) }?.key ?? 12
    }

    /// The signal expected at `point`, its 80 % interval and the chance of being heard at `sf` (the
    /// antenna's usual SF when nil); throws why not when the point lies beyond its reach.
    public func predict(at point: GeoPoint, spreadingFactor sf: Int? = nil) throws(PredictionRefusal) -> SignalPrediction {
        let kilometres = position.distance(to: point) / 1000
        guard kilometres <= Self.limit(reach: reach) else {
            throw PredictionRefusal("\(kilometres.rounded(toPlaces: 1)) km away, beyond its farthest reception (\(reach.rounded(toPlaces: 1)) km) by more than a quarter")
        }
        let (residual, variance) = field.estimate(at: point)
        let floor = floors[sf ?? spreadingFactor]
        return SignalPrediction.heard(mean: fit.mean(kilometres: kilometres) + residual, spread: variance.squareRoot(), floor: floor)
    }
}

/// A predicted signal (RSSI + min(SNR, 0), dBm) with its 80 % interval and P(heard).
public struct SignalPrediction: Sendable, Hashable {
    /// What a reception there would show: only heard ones have a signal, so this is the signal
    /// given it is heard, and the interval is that of a reception (10 % of them under `low`, 10 %
    /// over `high`).
    public var signal: Double
    public var low: Double
    public var high: Double
    /// The chance a transmission there is heard at all.
    public var pHeard: Double

    /// From the level at a place (normal, `mean` and `spread` in dB) and the floor under which
    /// nothing is received: the normal cut at the floor. Well above it this is the normal itself;
    /// near it the receptions that exist are the strong half, and the signal and interval say so.
    static func heard(mean: Double, spread: Double, floor: Double) -> SignalPrediction {
        let below = StandardNormal.cdf((floor - mean) / spread)
        let pHeard = 1 - below
        func quantile(_ share: Double) -> Double { mean + spread * StandardNormal.quantile(below + share * pHeard) }
        // E[level | level ≥ floor] = mean + spread·φ(a)/(1 − Φ(a)), a the floor in spreads.
        let a = (floor - mean) / spread
        let signal = pHeard > 1e-9 ? mean + spread * StandardNormal.pdf(a) / pHeard : floor
        // Gateways report RSSI in whole dB: the interval is widened to the whole dB either side,
        // or a reception at the floor itself (−132 at SF10, many of them) falls outside a bound
        // of −131.5 that no gateway can report.
        return SignalPrediction(signal: signal, low: quantile(0.1).rounded(.down), high: quantile(0.9).rounded(.up), pHeard: pHeard)
    }
}

/// Why there is no prediction, in words.
public struct PredictionRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

extension Double {
    func rounded(toPlaces places: Int) -> Double {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return (self * scale).rounded() / scale
    }
}
