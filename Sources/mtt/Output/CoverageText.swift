import Foundation
import MTTCore

/// `mtt coverage` for a person: the area in a few numbers, then a line or two per gateway.
enum CoverageText {
    static func render(_ s: CoverageSummary) -> String {
        let a = s.area
        guard a.mapped > 0 else { return "No coverage yet: mtt collect (or mtt demo) maps some." }
        var lines = ["Cells      \(a.mapped) mapped (zoom-19 tiles), \(a.heard) heard by a gateway, \(a.mappedNotHeard) mapped but never heard"
            + (a.heardByLinkCheck > 0 ? ", \(a.heardByLinkCheck) heard by a link check alone (LinkCheck: gateways counted, not named)" : "")
            + (a.unknown > 0 ? ", \(a.unknown) unknown (attempts with no network source; mtt fetch can tell)" : "")]
        if let change = s.latest {
            lines.append("Latest     session \(change.session) added \(change.newlyMapped) cell(s) mapped and \(change.newlyHeard) heard")
        }
        if !s.leftOut.isEmpty {
            lines.append("Left out   " + s.leftOut.sorted { $0.key < $1.key }.map { "\($0.value) reception(s) \($0.key)" }.joined(separator: ", "))
        }
        lines.append("Gateways   \(s.gateways.count)")
        for g in s.gateways {
            let name = g.gateway.isEmpty ? "(unnamed gateway)" : g.gateway
            var line = "  \(name)\(g.antenna > 0 ? " antenna \(g.antenna)" : ""): \(g.cells) cell(s), \(g.receptions) reception(s), best \(g.best.plainText) dBm"
            line += ", last heard \(RFC3339.string(g.lastHeard, fractionDigits: 0))"
            if let p = g.position {
                line += "\n    " + (g.estimated ? "position estimated" : "at") + " \(Self.place(p))"
            }
            // The farthest reception follows the position on its line, unless a check came between.
            var afterPosition = g.position != nil
            if let check = s.positionChecks?.first(where: { $0.key.gateway == g.gateway && $0.key.antenna == g.antenna && $0.key.network == g.network }) {
                line += "\n    " + (check.contradicted ? "POSITION? " : "") + check.text
                afterPosition = false
            }
            if let far = g.farthest {
                line += (afterPosition ? "; " : "\n    ") + "farthest \(String(format: "%.2f", far.metres / 1000)) km at \(Int(far.bearing))° (\(Self.place(far.at)), \(RFC3339.string(far.time, fractionDigits: 0)))"
            }
            for move in s.moves ?? [] where move.gateway == g.gateway && move.network == g.network {
                line += "\n    moved \(Self.distance(move.metres)) on \(RFC3339.string(move.movedAt, fractionDigits: 0)) from \(Self.place(move.from));"
                    + " its cells from before are history (mtt export --format geojson --layer moved)"
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    static func distance(_ metres: Double) -> String {
        metres < 1_000 ? "\(Int(metres.rounded())) m" : String(format: "%.2f km", metres / 1000)
    }

    static func place(_ p: GeoPoint) -> String {
        String(format: "%.5f, %.5f", p.latitude, p.longitude)
    }
}
