import Glibc

/// The standard normal distribution, as the predictions state their intervals and chances.
enum StandardNormal {
    static func cdf(_ z: Double) -> Double { 0.5 * erfc(-z / 2.0.squareRoot()) }
    static func pdf(_ z: Double) -> Double { exp(-0.5 * z * z) / (2 * Double.pi).squareRoot() }
    /// The half-width of the central 80 % interval, in standard deviations.
    static let z80 = 1.2815515655446004
}
