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
    /// Indices of the places by grid square, `squareSize` metres a side (a quarter of the range,
    /// 25 m to 500 m): a search for the nearest looks at a few squares, dense or sparse.
    private let squares: [SquareKey: [Int32]]
    private let squareSize: Double
    /// Neighbours used per prediction: 16 is where adding more stopped changing the answer.
    private static let neighbours = 16

    struct SquareKey: Hashable { var x: Int32, y: Int32 }

    /// `variance` is the scatter about the line the fit found (its σ²): the sill and nugget share it.
    init(points: [GeoPoint], residuals: [Double], variance: Double, origin: GeoPoint) {
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
        let total = max(variance, 1)
        let (nugget, range) = Self.variogram(xs: xs, ys: ys, residuals: residuals, total: total)
        self.nugget = nugget
        self.sill = total - nugget
        self.range = range
        squareSize = min(max(range / 4, 25), 500)
        var squares: [SquareKey: [Int32]] = [:]
        for i in xs.indices { squares[Self.square(xs[i], ys[i], squareSize), default: []].append(Int32(i)) }
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
        let home = Self.square(x, y, squareSize)
        // The nearest places, ring by ring of squares outwards, until no nearer one can come;
        // three ranges out the covariance is 5 % of the sill, and further places add nothing.
        var near: [(distance: Double, index: Int)] = []
        near.reserveCapacity(Self.neighbours + 1)
        let reach = 3 * range
        var ring: Int32 = 0
        while Double(max(ring - 1, 0)) * squareSize <= reach {
            if near.count == Self.neighbours, Double(ring - 1) * squareSize > near[near.count - 1].distance { break }
            for dx in -ring...ring {
                for dy in -ring...ring where max(abs(dx), abs(dy)) == ring {
                    for i in squares[SquareKey(x: home.x + dx, y: home.y + dy)] ?? [] {
                        let px = xs[Int(i)] - x, py = ys[Int(i)] - y
                        let d = (px * px + py * py).squareRoot()
                        guard d <= reach, near.count < Self.neighbours || d < near[near.count - 1].distance else { continue }
                        // Kept sorted, nearest first: an insertion into at most 16.
                        var at = near.count
                        while at > 0 && near[at - 1].distance > d { at -= 1 }
                        near.insert((d, Int(i)), at: at)
                        if near.count > Self.neighbours { near.removeLast() }
                    }
                }
            }
            ring += 1
        }
        guard !near.isEmpty else { return (0, sill + nugget) }
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
    /// weighted by the pairs in each 50 m lag, to 1 km), the sill and the nugget sharing `total`.
    /// Read from every pair of at most 2,000 places taken evenly through the data (a dense drive's
    /// pairs would cost its square; 2,000 give some two million pairs, enough for 20 lags).
    private static func variogram(xs: [Double], ys: [Double], residuals: [Double], total: Double) -> (nugget: Double, range: Double) {
        let lag = 50.0, lags = 20
        var sums = [Double](repeating: 0, count: lags), counts = [Double](repeating: 0, count: lags)
        let stride = max(1, xs.count / 2_000)
        let taken = Swift.stride(from: 0, to: xs.count, by: stride).map { $0 }
        for (a, i) in taken.enumerated() {
            for j in taken[(a + 1)...] {
                let dx = xs[i] - xs[j], dy = ys[i] - ys[j]
                let h2 = dx * dx + dy * dy
                guard h2 < 1_000_000 else { continue }
                let bin = Int(h2.squareRoot() / lag)
                sums[bin] += 0.5 * (residuals[i] - residuals[j]) * (residuals[i] - residuals[j])
                counts[bin] += 1
            }
        }
        var best = (nugget: total * 0.5, range: 200.0, error: Double.infinity)
        for range in [50.0, 100, 150, 200, 300, 400] {
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
