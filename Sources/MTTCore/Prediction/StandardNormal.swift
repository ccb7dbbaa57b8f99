import Glibc

/// The standard normal distribution, as the predictions state their intervals and chances.
enum StandardNormal {
    static func cdf(_ z: Double) -> Double { 0.5 * erfc(-z / 2.0.squareRoot()) }
    static func pdf(_ z: Double) -> Double { exp(-0.5 * z * z) / (2 * Double.pi).squareRoot() }
    /// The half-width of the central 80 % interval, in standard deviations.
    static let z80 = 1.2815515655446004

    /// z with cdf(z) = p: Newton's steps from 0, each kept inside a bracket that halves when a
    /// step would leave it (the tails are flat, and a bare Newton step there flies off).
    static func quantile(_ p: Double) -> Double {
        let p = min(max(p, 1e-12), 1 - 1e-12)
        var low = -8.0, high = 8.0, z = 0.0
        for _ in 0..<60 {
            let error = cdf(z) - p
            if abs(error) < 1e-12 { break }
            if error > 0 { high = z } else { low = z }
            let step = z - error / max(pdf(z), 1e-300)
            z = step > low && step < high ? step : (low + high) / 2
        }
        return z
    }
}
