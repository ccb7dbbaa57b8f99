import Glibc

/// One antenna's log-distance line, signal = intercept − slope · log10(d / 1 km) + X with X normal
/// (σ), in the terms of SPEC §11: the slope is 10·n, the intercept the signal at 1 km (transmit
/// power, gains and losses all land there, so a fit per antenna absorbs them).
///
/// Fitted by maximum likelihood with the data's censoring: a signal too weak to demodulate is not in
/// the data at all, so a line through the heard receptions alone runs high far out. The places the
/// antenna did not hear (attempts and uplinks it missed) say "below the floor" there; the fit is a
/// Tobit regression solved by expectation–maximisation (each censored value replaced by its
/// expectation below the floor, then least squares), which converges without step sizes to tune.
public struct PathLossFit: Sendable, Hashable, Encodable {
    /// Signal at 1 km, dBm.
    public var intercept: Double
    /// dB per decade of distance: 10·n.
    public var slope: Double
    /// The scatter about the line (shadowing), dB.
    public var sigma: Double

    /// n from 1.5 (better than free space, along a street canyon) to 6 (deep indoors): a fit that
    /// wants more is held at the limit (few samples at one distance say nothing of the slope).
    public static let slopes: ClosedRange<Double> = 15...60
    /// Distances under 50 m count as 50 m: the far-field line means nothing closer.
    public static let nearest = 0.05

    /// One point for a fit: the distance in km and the signal heard, or the floor it was under.
    public struct Point: Sendable, Hashable {
        public var kilometres: Double
        public var value: Double
        public var heard: Bool

        public init(kilometres: Double, value: Double, heard: Bool) {
            self.kilometres = kilometres
            self.value = value
            self.heard = heard
        }

        var x: Double { log10(max(kilometres, PathLossFit.nearest)) }
    }

    public func mean(kilometres: Double) -> Double {
        intercept - slope * log10(max(kilometres, Self.nearest))
    }

    /// The line through `points`: with `censored`, the points not heard count as "below their
    /// floor"; without, they are left out (a plain least-squares line through what was heard, the
    /// baseline SPEC §11 measures against). Nil with fewer than 3 heard points.
    public static func fit(_ points: [Point], censored: Bool) -> PathLossFit? {
        // Points grouped by distance (steps of 1/200 of a decade, 1.2 %: 0.2 dB of a steep line)
        // and, not heard, by floor: each EM round then costs the groups, not the points (a drive of
        // 100,000 places has a few thousand groups). The groups are arrays indexed by bin, the
        // floors a short list (one per SF): hashing a key for each point was most of a fit.
        let lowest = Int((log10(nearest) * 200).rounded())
        let bins = points.map { Int(($0.x * 200).rounded()) - lowest }
        let width = (bins.max() ?? 0) + 1
        var heardGroups = [(n: Double, sum: Double, squares: Double)](repeating: (0, 0, 0), count: width)
        var floorValues: [Double] = []
        var censoredGroups: [[Double]] = []
        for (p, bin) in zip(points, bins) {
            if p.heard {
                heardGroups[bin].n += 1
                heardGroups[bin].sum += p.value
                heardGroups[bin].squares += p.value * p.value
            } else if censored {
                // Floors a tenth of a dB apart are one floor.
                let floor = (p.value * 10).rounded() / 10
                let f = floorValues.firstIndex(of: floor) ?? floorValues.count
                if f == floorValues.count {
                    floorValues.append(floor)
                    censoredGroups.append([Double](repeating: 0, count: width))
                }
                censoredGroups[f][bin] += 1
            }
        }
        let heard = heardGroups.enumerated().filter { $0.element.n > 0 }.map {
            (x: Double($0.offset + lowest) / 200, n: $0.element.n, sum: $0.element.sum, squares: $0.element.squares)
        }
        var below: [(x: Double, floor: Double, n: Double)] = []
        for (f, groups) in censoredGroups.enumerated() {
            for (bin, n) in groups.enumerated() where n > 0 { below.append((Double(bin + lowest) / 200, floorValues[f], n)) }
        }
        let count = heard.map(\.n).reduce(0, +)
        guard count >= 3 else { return nil }
        /// The residual sum of squares of the heard points about a line.
        func heardSquares(_ f: PathLossFit) -> Double {
            heard.reduce(0) { total, g in let mu = f.mean(x: g.x); return total + g.squares - 2 * mu * g.sum + g.n * mu * mu }
        }
        var fit = line(heard.map { ($0.x, $0.n, $0.sum) })
        fit.sigma = max(1, (heardSquares(fit) / count).squareRoot())
        guard !below.isEmpty else { return fit }
        let total = count + below.map(\.n).reduce(0, +)
        for _ in 0..<200 {
            // The expectation of a normal below the floor, and its variance there.
            var completed: [(x: Double, n: Double, sum: Double)] = heard.map { ($0.x, $0.n, $0.sum) }
            var expected: [(x: Double, n: Double, value: Double, variance: Double)] = []
            expected.reserveCapacity(below.count)
            for g in below {
                let mu = fit.mean(x: g.x)
                let alpha = (g.floor - mu) / fit.sigma
                let lambda = StandardNormal.pdf(alpha) / max(StandardNormal.cdf(alpha), 1e-300)
                let value = mu - fit.sigma * lambda
                expected.append((g.x, g.n, value, fit.sigma * fit.sigma * max(0, 1 - alpha * lambda - lambda * lambda)))
                completed.append((g.x, g.n, g.n * value))
            }
            var next = line(completed)
            let squares = heardSquares(next) + expected.reduce(0) { t, e in let d = e.value - next.mean(x: e.x); return t + e.n * (d * d + e.variance) }
            next.sigma = max(1, (squares / total).squareRoot())
            let settled = abs(next.intercept - fit.intercept) < 0.005 && abs(next.slope - fit.slope) < 0.005 && abs(next.sigma - fit.sigma) < 0.005
            fit = next
            if settled { break }
        }
        return fit
    }

    /// The line at x = log10(km), the distance already floored.
    private func mean(x: Double) -> Double { intercept - slope * x }

    /// Weighted least squares of value on log10 distance, from groups of `n` values summing to
    /// `sum` at one distance; the slope held within `slopes`.
    static func line(_ groups: [(x: Double, n: Double, sum: Double)]) -> PathLossFit {
        var n = 0.0, sx = 0.0, sy = 0.0
        for g in groups { n += g.n; sx += g.n * g.x; sy += g.sum }
        let mx = sx / n, my = sy / n
        var sxx = 0.0, sxy = 0.0
        for g in groups {
            sxx += g.n * (g.x - mx) * (g.x - mx)
            sxy += (g.x - mx) * (g.sum - g.n * my)
        }
        // One distance only: the slope of the middle of the range (n = 3).
        let slope = sxx > 1e-9 ? min(max(-sxy / sxx, slopes.lowerBound), slopes.upperBound) : 30
        return PathLossFit(intercept: my + slope * mx, slope: slope, sigma: 0)
    }
}
