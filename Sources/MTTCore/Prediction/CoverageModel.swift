import Dispatch
import Synchronization

/// Every antenna's model, fitted from a store's data: what `mtt coverage predict` asks.
public struct CoverageModel: Sendable {
    public let models: [AntennaModel]
    /// The antennas with no model, and why.
    public let refused: [(key: AntennaKey, reason: String)]
    /// Each gateway's EUI, when the network said it.
    let euis: [String: String]

    public init(_ data: [AntennaData]) {
        // Each antenna fitted on its own core: its line and its residuals' variogram are most of
        // the time a map's first predicted view takes.
        let fitted = Mutex([Result<AntennaModel, PredictionRefusal>?](repeating: nil, count: data.count))
        DispatchQueue.concurrentPerform(iterations: data.count) { i in
            let antenna = data[i]
            let result: Result<AntennaModel, PredictionRefusal>
            if let position = antenna.position {
                result = Result { () throws(PredictionRefusal) in try AntennaModel(key: antenna.key, position: position, observations: antenna.observations) }
            } else {
                result = .failure(PredictionRefusal("its gateway reports no position"))
            }
            fitted.withLock { $0[i] = result }
        }
        var models: [AntennaModel] = [], refused: [(AntennaKey, String)] = []
        for (antenna, result) in zip(data, fitted.withLock { $0 }) {
            switch result {
            case .success(let model): models.append(model)
            case .failure(let refusal): refused.append((antenna.key, refusal.description))
            case nil: break
            }
        }
        self.models = models
        self.refused = refused
        euis = Dictionary(data.compactMap { d in d.eui.map { (d.key.gateway, $0) } }) { first, _ in first }
    }

    /// Each antenna's prediction at `point` (or why it has none), and the chance that at least one
    /// hears: 1 − Π(1 − p), the antennas taken as independent.
    public func predict(at point: GeoPoint, spreadingFactor: Int? = nil) -> PointPrediction {
        var gateways: [PointPrediction.Antenna] = []
        var missed = 1.0
        for model in models {
            do {
                let p = try model.predict(at: point, spreadingFactor: spreadingFactor)
                missed *= 1 - p.pHeard
                gateways.append(.init(key: model.key, eui: euis[model.key.gateway], prediction: p, reason: nil))
            } catch {
                gateways.append(.init(key: model.key, eui: euis[model.key.gateway], prediction: nil, reason: error.description))
            }
        }
        for (key, reason) in refused { gateways.append(.init(key: key, eui: euis[key.gateway], prediction: nil, reason: reason)) }
        return PointPrediction(point: point, pHeardAny: 1 - missed, gateways: gateways.sorted { $0.key < $1.key })
    }
}

/// One point's predictions: DESIGN's `mtt coverage predict --json` object.
public struct PointPrediction: Sendable, Encodable {
    public struct Antenna: Sendable, Encodable {
        public var key: AntennaKey
        public var eui: String?
        public var prediction: SignalPrediction?
        public var reason: String?

        enum CodingKeys: String, CodingKey { case network, gateway = "gateway_id", eui, antenna, signal, low, high, pHeard = "p_heard", reason }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(key.network, forKey: .network)
            try c.encode(key.gateway, forKey: .gateway)
            try c.encode(eui, forKey: .eui)
            try c.encode(key.antenna, forKey: .antenna)
            if let p = prediction {
                try c.encode(p.signal.rounded(toPlaces: 1), forKey: .signal)
                try c.encode(p.low.rounded(toPlaces: 1), forKey: .low)
                try c.encode(p.high.rounded(toPlaces: 1), forKey: .high)
                try c.encode(p.pHeard.rounded(toPlaces: 3), forKey: .pHeard)
            } else {
                try c.encode(reason, forKey: .reason)
            }
        }
    }

    public var point: GeoPoint
    public var pHeardAny: Double
    public var gateways: [Antenna]

    enum CodingKeys: String, CodingKey { case lat, lon, pHeardAny = "p_heard_any", gateways }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(point.latitude, forKey: .lat)
        try c.encode(point.longitude, forKey: .lon)
        try c.encode(pHeardAny.rounded(toPlaces: 3), forKey: .pHeardAny)
        try c.encode(gateways, forKey: .gateways)
    }
}

extension PointPrediction {
    public static let csvHeader = "lat,lon,network,gateway_id,antenna,signal,low,high,p_heard,p_heard_any,reason"

    /// A CSV line per antenna: the point, the antenna, its prediction or the reason it has none.
    public var csvLines: [String] {
        gateways.map { g in
            let p = g.prediction
            func number(_ value: Double?, _ places: Int) -> String { value.map { $0.rounded(toPlaces: places).plainText } ?? "" }
            return [
                point.latitude.plainText, point.longitude.plainText, CSVWriter.quoted(g.key.network), CSVWriter.quoted(g.key.gateway), String(g.key.antenna),
                number(p?.signal, 1), number(p?.low, 1), number(p?.high, 1), number(p?.pHeard, 3), number(pHeardAny, 3), CSVWriter.quoted(g.reason ?? ""),
            ].joined(separator: ",")
        }
    }
}
