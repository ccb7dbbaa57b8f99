import Foundation
import MTTCore

/// How `mtt gps` shows GPS events: a line for people, or one JSON object per event.
enum FixText {
    static func line(_ fix: Fix, age: Double, stale: Bool) -> String {
        var parts = [
            RFC3339.string(fix.time, fractionDigits: 0),
            fix.mode == .threeD ? "3D" : "2D",
            PlaceText.of(latitude: fix.latitude, longitude: fix.longitude),
        ]
        if let alt = fix.altitudeMSL ?? fix.altitudeHAE { parts.append(String(format: "alt %.1f m", alt)) }
        parts.append("sats \(fix.satellites.map(String.init) ?? "?")")
        parts.append("hdop \(fix.hdop.map { String(format: "%.1f", $0) } ?? "?")")
        if let eph = fix.eph { parts.append(String(format: "eph %.0f m", eph)) }
        if let speed = fix.speed { parts.append(String(format: "%.1f km/h", speed * 3.6)) }
        parts.append("age \(SpokenDuration.age(age))" + (stale ? " STALE" : ""))
        return parts.joined(separator: "  ")
    }

    struct Event: Encodable {
        var event: String
        var time: String?
        var lat: Double?
        var lon: Double?
        var altHAE: Double?
        var altMSL: Double?
        var eph: Double?
        var epv: Double?
        var hdop: Double?
        var satellites: Int?
        var speed: Double?
        var track: Double?
        var mode: Int?
        var source: String?
        var age: Double?
        var stale: Bool?
        var reason: String?

        enum CodingKeys: String, CodingKey {
            // "type", as in every other command's JSON lines (docs/events.md).
            case event = "type"
            case time, lat, lon, eph, epv, hdop, satellites, speed, track, mode, source, age, stale, reason
            case altHAE = "alt_hae"
            case altMSL = "alt_msl"
        }

        static func fix(_ fix: Fix, age: Double, stale: Bool) -> Event {
            Event(
                event: "fix", time: RFC3339.string(fix.time), lat: fix.latitude, lon: fix.longitude,
                altHAE: fix.altitudeHAE, altMSL: fix.altitudeMSL, eph: fix.eph, epv: fix.epv, hdop: fix.hdop,
                satellites: fix.satellites, speed: fix.speed, track: fix.track, mode: fix.mode.rawValue,
                source: fix.source, age: (age * 10).rounded() / 10, stale: stale)
        }
    }
}
