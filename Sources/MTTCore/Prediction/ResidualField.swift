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
    /// The places by grid square, `squareSize` metres a side (a quarter of the range, 25 m to
    /// 500 m): a search for the nearest looks at a few squares, dense or sparse.
    private let grid: SquareGrid
    private var squareSize: Double { grid.size }
    /// Neighbours used per prediction: 16 is where adding more stopped changing the answer.
    private static let neighbours = 16

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
        grid = SquareGrid(xs: xs, ys: ys, size: min(max(range / 4, 25), 500))
    }

    /// An equirectangular projection about `origin`: metres east and north, good to a few parts in
    /// a thousand over the tens of kilometres a gateway reaches.
    static func metres(_ p: GeoPoint, from origin: GeoPoint) -> (Double, Double) {
        ((p.longitude - origin.longitude) * 111_320 * cos(origin.latitude * .pi / 180), (p.latitude - origin.latitude) * 110_574)
    }

    /// The residual expected at `point` and the variance of a reception there about the prediction
    /// (the nugget included): the whole scatter where no measurement is near.
    func estimate(at point: GeoPoint) -> (residual: Double, variance: Double) {
        let (x, y) = Self.metres(point, from: origin)
        let (column, row) = grid.square(x, y)
        // The nearest places, ring by ring of squares outwards, until no nearer one can come;
        // three ranges out the covariance is 5 % of the sill, and further places add nothing.
        var near: [(distance: Double, index: Int)] = []
        near.reserveCapacity(Self.neighbours + 1)
        let reach = 3 * range
        func consider(_ column: Int, _ row: Int) {
            for i in grid.places(column, row) {
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
        var ring = 0
        while Double(max(ring - 1, 0)) * squareSize <= reach, !grid.encloses(column, row, ring: ring) {
            if near.count == Self.neighbours, Double(ring - 1) * squareSize > near[near.count - 1].distance { break }
            if ring == 0 {
                consider(column, row)
            } else {
                // The ring's edge only: its top and bottom rows whole, its sides between them.
                for dx in -ring...ring {
                    consider(column + dx, row - ring)
                    consider(column + dx, row + ring)
                }
                for dy in (1 - ring)..<ring {
                    consider(column - ring, row + dy)
                    consider(column + ring, row + dy)
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

/// Places' indices by square of a grid over their bounding box, each square's as one run of a
/// single array (a dictionary of squares was most of a prediction's time: a search far from the
/// data, as a cross-validation's held-out square is, looked up hundreds of empty squares).
struct SquareGrid: Sendable {
    /// Metres a side; larger than asked when the box would need more than `largest` squares.
    let size: Double
    private let minX: Double, minY: Double
    private let columns: Int, rows: Int
    /// Square k's places are `members[starts[k]..<starts[k + 1]]`, k = row · columns + column.
    private let starts: [Int32]
    private let members: [Int32]
    /// 4 million squares: 16 MB of starts at most, for one antenna's field.
    private static let largest = 4_000_000.0

    init(xs: [Double], ys: [Double], size asked: Double) {
        let minX = xs.min() ?? 0, minY = ys.min() ?? 0
        let width = (xs.max() ?? 0) - minX, height = (ys.max() ?? 0) - minY
        var size = asked
        let needed = (width / size + 1) * (height / size + 1)
        if needed > Self.largest { size *= (needed / Self.largest).squareRoot() * 1.01 }
        let columns = Int(width / size) + 1, rows = Int(height / size) + 1
        self.size = size
        self.minX = minX
        self.minY = minY
        self.columns = columns
        self.rows = rows
        var counts = [Int32](repeating: 0, count: columns * rows + 1)
        let squareOf = xs.indices.map { i in Int((ys[i] - minY) / size) * columns + Int((xs[i] - minX) / size) }
        for k in squareOf { counts[k + 1] += 1 }
        for k in 1..<counts.count { counts[k] += counts[k - 1] }
        var next = counts
        var members = [Int32](repeating: 0, count: xs.count)
        for (i, k) in squareOf.enumerated() {
            members[Int(next[k])] = Int32(i)
            next[k] += 1
        }
        starts = counts
        self.members = members
    }

    /// The square holding a place `x`, `y` metres from the origin (outside the grid for a place
    /// outside the box).
    func square(_ x: Double, _ y: Double) -> (column: Int, row: Int) {
        (Int(((x - minX) / size).rounded(.down)), Int(((y - minY) / size).rounded(.down)))
    }

    func places(_ column: Int, _ row: Int) -> ArraySlice<Int32> {
        guard (0..<columns).contains(column), (0..<rows).contains(row) else { return [] }
        let k = row * columns + column
        return members[Int(starts[k])..<Int(starts[k + 1])]
    }

    /// Whether the ring `ring` squares out from `column`, `row` passes outside the grid on every
    /// side: it and every ring further out hold nothing.
    func encloses(_ column: Int, _ row: Int, ring: Int) -> Bool {
        column - ring < 0 && column + ring >= columns && row - ring < 0 && row + ring >= rows
    }
}
