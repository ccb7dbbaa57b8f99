import Foundation
import MTTCore

/// `mtt coverage predict` for a person: the place, the chance anyone hears, a line per antenna.
enum PredictionText {
    static func render(_ p: PointPrediction) -> String {
        var lines = [String(format: "%@  heard by at least one: %.0f %%", PlaceText.of(latitude: p.point.latitude, longitude: p.point.longitude), 100 * p.pHeardAny)]
        for g in p.gateways {
            let name = g.key.gateway + (g.key.antenna > 0 ? " antenna \(g.key.antenna)" : "")
            if let s = g.prediction {
                lines.append(String(format: "  %@: %.0f dBm (80 %%: %.0f … %.0f), heard %.0f %%", name, s.signal, s.low, s.high, 100 * s.pHeard))
            } else {
                lines.append("  \(name): no prediction: \(g.reason ?? "?")")
            }
        }
        return lines.joined(separator: "\n")
    }
}
