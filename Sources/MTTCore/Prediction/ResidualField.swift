import Glibc

/// What the line leaves over, spread between the places it was measured: simple kriging of one
/// antenna's residuals with an exponential covariance, s²·e^(−h/λ) between two places h metres
/// apart, plus a nugget at each (the scatter of one reception about the local mean). The nugget, the
/// sill and the range λ come from the residuals' own semivariogram. Near measurements a prediction
/// follows them and its interval narrows; far from them it falls back to the line and the whole
/// scatter: an interval that says how much is known there.
struct ResidualField: Sendable {
    /// Places in metres east and north of `origin`, and their residuals (dB).
    private let xs: [Double], ys: [Double], residuals: [Double]
    private let origin: GeoPoint
    /// The covariance's partial sill (dB²), nugget (dB²) and range (m).
    let sill: Double, nugget: Double, range: Double
    /// Indices of the places by grid square (`range` metres a side).
    private let squares: [SquareKey: [Int32]]
    /// Neighbours used per prediction: 16 is where adding more stopped changing the answer.
    private static let neighbours = 16

    struct SquareKey: Hashable { var x: Int32, y: Int32 }

    init(points: [GeoPoint], residuals: [Double], origin: GeoPoint) {
        self.origin = origin
        self.residuals = residuals
        var xs: [Double] = [], ys: [Double] = []
        xs.reserveCapacity(points.count)
        ys.reserveCapacity(points.count)
        for p in points {
            let (x, y) = Self.metres(p, from: origin)
            xs.append(x)
            ys.append(y)
        }
        self.xs = xs
        self.ys = ys
        let total = max(residuals.map { $0 * $0 }.reduce(0, +) / Double(max(residuals.count, 1)), 1)
        let (nugget, range) = Self.variogram(xs: xs, ys: ys, residuals: residuals, total: total)
        self.nugget = nugget
        self.sill = total - nugget
        self.range = range
        var squares: [SquareKey: [Int32]] = [:]
        for i in xs.indices { squares[Self.square(xs[i], ys[i], range), default: []].append(Int32(i)) }
        self.squares = squares
    }

    /// An equirectangular projection about `origin`: metres east and north, good to a few parts in
    /// a thousand over the tens of kilometres a gateway reaches.
    static func metres(_ p: GeoPoint, from origin: GeoPoint) -> (Double, Double) {
        ((p.longitude - origin.longitude) * 111_320 * cos(origin.latitude * .pi / 180), (p.latitude - origin.latitude) * 110_574)
    }

    private static func square(_ x: Double, _ y: Double, _ size: Double) -> SquareKey {
        SquareKey(x: Int32((x / size).rounded(.down)), y: Int32((y / size).rounded(.down)))
    }

    /// The residual expected at `point` and the variance of a reception there about the prediction
    /// (the nugget included): the whole scatter where no measurement is near.
    func estimate(at point: GeoPoint) -> (residual: Double, variance: Double) {
        let (x, y) = Self.metres(point, from: origin)
        let home = Self.square(x, y, range)
        var near: [(distance: Double, index: Int)] = []
        // Three ranges out, the covariance is 5 % of the sill: further places add nothing.
        for dx in -3...3 {
            for dy in -3...3 {
                for i in squares[SquareKey(x: home.x + Int32(dx), y: home.y + Int32(dy))] ?? [] {
                    let d = ((xs[Int(i)] - x) * (xs[Int(i)] - x) + (ys[Int(i)] - y) * (ys[Int(i)] - y)).squareRoot()
                    if d <= 3 * range { near.append((d, Int(i))) }
                }
            }
        }
        guard !near.isEmpty else { return (0, sill + nugget) }
        if near.count > Self.neighbours {
            near.sort { $0.distance < $1.distance }
            near.removeLast(near.count - Self.neighbours)
        }
        let n = near.count
        // (C + nugget·I) w = c, solved by Cholesky: C is the covariance between the neighbours.
        var a = [Double](repeating: 0, count: n * n)
        var c = [Double](repeating: 0, count: n)
        for i in 0..<n {
            c[i] = covariance(near[i].distance)
            for j in 0...i {
                let pi = near[i].index, pj = near[j].index
                let h = ((xs[pi] - xs[pj]) * (xs[pi] - xs[pj]) + (ys[pi] - ys[pj]) * (ys[pi] - ys[pj])).squareRoot()
                a[i * n + j] = covariance(h) + (i == j ? nugget : 0)
            }
        }
        guard let w = Self.solve(a, c, n) else { return (0, sill + nugget) }
        var residual = 0.0, explained = 0.0
        for i in 0..<n {
            residual += w[i] * residuals[near[i].index]
            explained += w[i] * c[i]
        }
        return (residual, max(sill + nugget - explained, nugget))
    }

    private func covariance(_ h: Double) -> Double { sill * exp(-h / range) }

    /// Solves A w = b for a symmetric positive definite A given by its lower triangle.
    private static func solve(_ a: [Double], _ b: [Double], _ n: Int) -> [Double]? {
        var l = [Double](repeating: 0, count: n * n)
        for i in 0..<n {
            for j in 0...i {
                var sum = a[i * n + j]
                for k in 0..<j { sum -= l[i * n + k] * l[j * n + k] }
                if i == j {
                    guard sum > 1e-12 else { return nil }
                    l[i * n + i] = sum.squareRoot()
                } else {
                    l[i * n + j] = sum / l[j * n + j]
                }
            }
        }
        var y = [Double](repeating: 0, count: n)
        for i in 0..<n {
            var sum = b[i]
            for k in 0..<i { sum -= l[i * n + k] * y[k] }
            y[i] = sum / l[i * n + i]
        }
        var w = [Double](repeating: 0, count: n)
        for i in stride(from: n - 1, through: 0, by: -1) {
            var sum = y[i]
            for k in (i + 1)..<n { sum -= l[k * n + i] * w[k] }
            w[i] = sum / l[i * n + i]
        }
        return w
    }

    /// The nugget and range that fit the residuals' empirical semivariogram best (least squares,
    /// weighted by the pairs in each 50 m lag, to 1 km), with the sill the residuals' variance.
    /// Pairs are taken within the grid's squares, at most 200 per place, so a dense drive costs
    /// linear time.
    private static func variogram(xs: [Double], ys: [Double], residuals: [Double], total: Double) -> (nugget: Double, range: Double) {
        let lag = 50.0, lags = 20
        var sums = [Double](repeating: 0, count: lags), counts = [Double](repeating: 0, count: lags)
        var squares: [SquareKey: [Int]] = [:]
        for i in xs.indices { squares[square(xs[i], ys[i], 1_000), default: []].append(i) }
        for i in xs.indices {
            let home = square(xs[i], ys[i], 1_000)
            var taken = 0
            search: for dx in 0...1 {
                for dy in -1...1 where dx == 1 || dy >= 0 {
                    for j in squares[SquareKey(x: home.x + Int32(dx), y: home.y + Int32(dy))] ?? [] {
                        if dx == 0 && dy == 0 && j <= i { continue }
                        let h = ((xs[i] - xs[j]) * (xs[i] - xs[j]) + (ys[i] - ys[j]) * (ys[i] - ys[j])).squareRoot()
                        let bin = Int(h / lag)
                        guard bin < lags else { continue }
                        sums[bin] += 0.5 * pow(residuals[i] - residuals[j], 2)
                        counts[bin] += 1
                        taken += 1
                        if taken >= 200 { break search }
                    }
                }
            }
        }
        var best = (nugget: total * 0.5, range: 200.0, error: Double.infinity)
        for range in [50.0, 100, 150, 200, 300, 400, 600, 800, 1_200] {
            // γ(h) = total − (total − nugget)·e^(−h/λ): linear in the nugget once λ is chosen.
            var numerator = 0.0, denominator = 0.0
            for bin in 0..<lags where counts[bin] > 0 {
                let e = exp(-((Double(bin) + 0.5) * lag) / range)
                let gamma = sums[bin] / counts[bin]
                numerator += counts[bin] * e * (gamma - total * (1 - e))
                denominator += counts[bin] * e * e
            }
            guard denominator > 0 else { continue }
            let nugget = min(max(numerator / denominator, max(0.05 * total, 0.5)), total)
            var error = 0.0
            for bin in 0..<lags where counts[bin] > 0 {
                let e = exp(-((Double(bin) + 0.5) * lag) / range)
                error += counts[bin] * pow(sums[bin] / counts[bin] - (total - (total - nugget) * e), 2)
            }
            if error < best.error { best = (nugget, range, error) }
        }
        return (best.nugget, best.range)
    }
}
