import Dispatch
import Glibc
import Synchronization

/// How far to trust the predictions, measured as SPEC §11 asks: spatially blocked k-fold
/// cross-validation. The mapped area is cut into squares (1 km by default) and each square goes
/// whole to one fold, so a held-out reception has no neighbour from the same street seconds apart
/// in the training data (a random split flatters any interpolator). Each fold's antennas are fitted
/// on the other folds and predict the fold's receptions and its places not heard; beside them a plain
/// per-antenna log-distance line (least squares through the heard receptions, no censoring, no
/// residual field) predicts the same points: the baseline to beat.
public struct BlockedCrossValidation: Sendable {
    public var folds = 5
    public var blockMetres = 1_000.0

    public init(folds: Int = 5, blockMetres: Double = 1_000) {
        self.folds = folds
        self.blockMetres = blockMetres
    }

    /// One method's figures over every fold.
    public struct Scores: Sendable, Encodable {
        /// Of the predicted signal on held-out receptions, dB.
        public var rmse: Double
        public var mae: Double
        /// Share of held-out receptions inside their 80 % interval.
        public var inside80: Double
        /// How well P(heard) tells the held-out places heard from those not heard (0.5: no better
        /// than chance); nil when the held-out data have only one kind.
        public var auc: Double?

        enum CodingKeys: String, CodingKey { case rmse, mae, inside80 = "inside_80", auc }
    }

    public struct Report: Sendable, Encodable {
        public var folds: Int
        public var blockMetres: Double
        public var antennas: Int
        /// Held-out receptions predicted, and held-out places (heard or not) given a P(heard).
        public var receptions: Int
        public var places: Int
        public var model: Scores
        public var baseline: Scores

        enum CodingKeys: String, CodingKey { case folds, blockMetres = "block_m", antennas, receptions, places, model, baseline = "log_distance_baseline" }
    }

    /// One antenna's held-out points over its folds.
    private struct Held {
        var errors: [(model: Double, baseline: Double)] = []
        var inside = (model: 0, baseline: 0)
        var model: [(Double, Bool)] = [], baseline: [(Double, Bool)] = []
        var fitted = false
    }

    public func run(_ data: [AntennaData]) -> Report {
        let origin = data.compactMap(\.position).first ?? GeoPoint(latitude: 0, longitude: 0)
        // Each antenna's folds apart, on every core: 100,000 uplinks' 2.9 million held-out points
        // took a minute on one.
        let held = Mutex([Held?](repeating: nil, count: data.count))
        DispatchQueue.concurrentPerform(iterations: data.count) { i in
            let one = self.hold(data[i], origin: origin)
            held.withLock { $0[i] = one }
        }
        var errors: [(model: Double, baseline: Double)] = []
        var inside = (model: 0, baseline: 0)
        var model: [(Double, Bool)] = [], baseline: [(Double, Bool)] = []
        var antennas = 0
        for case let h? in held.withLock({ $0 }) {
            errors += h.errors
            inside.model += h.inside.model
            inside.baseline += h.inside.baseline
            model += h.model
            baseline += h.baseline
            if h.fitted { antennas += 1 }
        }
        func scores(_ e: [Double], _ inside: Int, _ ranked: [(Double, Bool)]) -> Scores {
            let n = Double(max(e.count, 1))
            return Scores(
                rmse: (e.map { $0 * $0 }.reduce(0, +) / n).squareRoot().rounded(toPlaces: 2), mae: (e.map(abs).reduce(0, +) / n).rounded(toPlaces: 2),
                inside80: (Double(inside) / n).rounded(toPlaces: 3), auc: Self.auc(ranked).map { $0.rounded(toPlaces: 3) })
        }
        return Report(
            folds: folds, blockMetres: blockMetres, antennas: antennas, receptions: errors.count, places: model.count,
            model: scores(errors.map(\.model), inside.model, model), baseline: scores(errors.map(\.baseline), inside.baseline, baseline))
    }

    private func hold(_ antenna: AntennaData, origin: GeoPoint) -> Held {
        var held = Held()
        guard let position = antenna.position else { return held }
        // Each place's fold once, not once for every fold.
        let placed = antenna.observations.map { (fold: self.fold(of: $0.point, origin: origin), observation: $0) }
        for fold in 0..<folds {
            let training = placed.filter { $0.fold != fold }.map(\.observation)
            let test = placed.filter { $0.fold == fold }.map(\.observation)
            // The line beside the model reads the same floors from the same receptions.
            guard !test.isEmpty, let fitted = try? AntennaModel(key: antenna.key, position: position, observations: training),
                  let line = PathLossFit.fit(training.map { $0.fitPoint(from: position, floors: fitted.floors) }, censored: false)
            else { continue }
            held.fitted = true
            for o in test {
                guard let p = try? fitted.predict(at: o.point, spreadingFactor: o.spreadingFactor) else { continue }
                let mean = line.mean(kilometres: position.distance(to: o.point) / 1000)
                let plain = SignalPrediction(
                    signal: mean, low: mean - StandardNormal.z80 * line.sigma, high: mean + StandardNormal.z80 * line.sigma,
                    pHeard: StandardNormal.cdf((mean - fitted.floors[o.spreadingFactor]) / line.sigma))
                held.model.append((p.pHeard, o.signal != nil))
                held.baseline.append((plain.pHeard, o.signal != nil))
                guard let signal = o.signal else { continue }
                held.errors.append((p.signal - signal, plain.signal - signal))
                if (p.low...p.high).contains(signal) { held.inside.model += 1 }
                if (plain.low...plain.high).contains(signal) { held.inside.baseline += 1 }
            }
        }
        return held
    }

    /// The fold a place's block goes to: its square's coordinates hashed (SplitMix64), so that the
    /// folds are the same every run and neighbouring squares land apart.
    func fold(of point: GeoPoint, origin: GeoPoint) -> Int {
        let (x, y) = ResidualField.metres(point, from: origin)
        let bx = Int64((x / blockMetres).rounded(.down)), by = Int64((y / blockMetres).rounded(.down))
        var random = SplitMix64(seed: UInt64(bitPattern: bx &* 0x1F1F_1F1F) ^ UInt64(bitPattern: by &* 0x7A3B_9C1D))
        return Int(random.next() % UInt64(folds))
    }

    /// The area under the ROC curve: the chance that a heard place scores above a place not heard
    /// (Mann–Whitney, ties counting half).
    static func auc(_ scored: [(score: Double, heard: Bool)]) -> Double? {
        let positives = scored.filter(\.heard).count, negatives = scored.count - positives
        guard positives > 0, negatives > 0 else { return nil }
        let sorted = scored.sorted { $0.score < $1.score }
        var rankSum = 0.0, i = 0
        while i < sorted.count {
            var j = i
            while j + 1 < sorted.count && sorted[j + 1].score == sorted[i].score { j += 1 }
            let rank = Double(i + j) / 2 + 1
            for k in i...j where sorted[k].heard { rankSum += rank }
            i = j + 1
        }
        return (rankSum - Double(positives) * Double(positives + 1) / 2) / (Double(positives) * Double(negatives))
    }
}
