import Foundation

/// A position as every line of mtt shows one: six decimals, about 10 cm.
enum PlaceText {
    static func of(latitude: Double, longitude: Double) -> String {
        String(format: "%.6f, %.6f", latitude, longitude)
    }
}
