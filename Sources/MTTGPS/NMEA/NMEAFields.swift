import MTTCore

/// Readers for the value formats NMEA uses; an empty field is nil, a malformed one an error.
enum NMEAFields {
    /// `hhmmss.sss` → seconds since midnight.
    static func timeOfDay(_ text: String, in sentence: String) throws(NMEAError) -> Double? {
        if text.isEmpty { return nil }
        let chars = Array(text.utf8)
        guard chars.count >= 6, let h = Int(text.prefix(2)), let m = Int(text.dropFirst(2).prefix(2)),
              let s = Double(text.dropFirst(4)), h < 24, m < 60, s < 61
        else { throw .badField(sentence: sentence, field: "time \(text)") }
        return Double(h * 3600 + m * 60) + s
    }

    /// `ddmmyy` → days since 1970-01-01. Two-digit years 80–99 are 1980–1999.
    static func date(_ text: String, in sentence: String) throws(NMEAError) -> Int? {
        if text.isEmpty { return nil }
        guard text.count == 6, let d = Int(text.prefix(2)), let m = Int(text.dropFirst(2).prefix(2)),
              let y = Int(text.dropFirst(4)), (1...31).contains(d), (1...12).contains(m)
        else { throw .badField(sentence: sentence, field: "date \(text)") }
        return CivilDays.from(year: y >= 80 ? 1900 + y : 2000 + y, month: m, day: d)
    }

    /// `ddmm.mmmm` with hemisphere `N`/`S` (or `dddmm.mmmm` with `E`/`W`) → signed degrees.
    static func coordinate(_ text: String, _ hemisphere: String, degreeDigits: Int, in sentence: String) throws(NMEAError) -> Double? {
        if text.isEmpty && hemisphere.isEmpty { return nil }
        let name = degreeDigits == 2 ? "latitude" : "longitude"
        guard text.count > degreeDigits + 2, let degrees = Double(text.prefix(degreeDigits)),
              let minutes = Double(text.dropFirst(degreeDigits)), minutes < 60
        else { throw .badField(sentence: sentence, field: "\(name) \(text)") }
        let value = degrees + minutes / 60
        switch hemisphere {
        case "N", "E": return value
        case "S", "W": return -value
        default: throw .badField(sentence: sentence, field: "\(name) hemisphere \(hemisphere)")
        }
    }

    static func number(_ text: String, _ name: String, in sentence: String) throws(NMEAError) -> Double? {
        if text.isEmpty { return nil }
        guard let value = Double(text), value.isFinite else { throw .badField(sentence: sentence, field: "\(name) \(text)") }
        return value
    }

    static func integer(_ text: String, _ name: String, in sentence: String) throws(NMEAError) -> Int? {
        if text.isEmpty { return nil }
        guard let value = Int(text) else { throw .badField(sentence: sentence, field: "\(name) \(text)") }
        return value
    }
}
