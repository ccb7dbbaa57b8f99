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
        let heard = points.filter(\.heard)
        guard heard.count >= 3 else { return nil }
        var fit = line(heard.map { ($0.x, $0.value) })
        fit.sigma = max(1, (heard.map { pow($0.value - fit.mean(kilometres: $0.kilometres), 2) }.reduce(0, +) / Double(heard.count)).squareRoot())
        guard censored, heard.count < points.count else { return fit }
        for _ in 0..<60 {
            var completed: [(Double, Double)] = []
            completed.reserveCapacity(points.count)
            var spread = 0.0
            for p in points {
                let mu = fit.mean(kilometres: p.kilometres)
                if p.heard {
                    completed.append((p.x, p.value))
                    continue
                }
                // The expectation of a normal below the floor, and its variance there.
                let alpha = (p.value - mu) / fit.sigma
                let tail = max(StandardNormal.cdf(alpha), 1e-300)
                let lambda = StandardNormal.pdf(alpha) / tail
                completed.append((p.x, mu - fit.sigma * lambda))
                spread += fit.sigma * fit.sigma * max(0, 1 - alpha * lambda - lambda * lambda)
            }
            var next = line(completed)
            let residuals = zip(completed, points).map { pow($0.0.1 - next.mean(kilometres: $0.1.kilometres), 2) }.reduce(0, +)
            next.sigma = max(1, ((residuals + spread) / Double(points.count)).squareRoot())
            let settled = abs(next.intercept - fit.intercept) < 0.01 && abs(next.slope - fit.slope) < 0.01 && abs(next.sigma - fit.sigma) < 0.01
            fit = next
            if settled { break }
        }
        return fit
    }

    /// Least squares of value on log10 distance, the slope held within `slopes`.
    private static func line(_ xy: [(x: Double, y: Double)]) -> PathLossFit {
        let n = Double(xy.count)
        let mx = xy.map(\.x).reduce(0, +) / n, my = xy.map(\.y).reduce(0, +) / n
        let sxx = xy.map { ($0.x - mx) * ($0.x - mx) }.reduce(0, +)
        let sxy = xy.map { ($0.x - mx) * ($0.y - my) }.reduce(0, +)
        // One distance only: the slope of the middle of the range (n = 3).
        let slope = sxx > 1e-9 ? min(max(-sxy / sxx, slopes.lowerBound), slopes.upperBound) : 30
        return PathLossFit(intercept: my + slope * mx, slope: slope, sigma: 0)
    }
}
