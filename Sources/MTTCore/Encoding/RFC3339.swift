/// UTC timestamps as text (`2026-06-21T10:15:00.000Z`), without Foundation's formatters, which are
/// slow and not safe to share between threads on Linux.
public enum RFC3339 {
    /// `fractionDigits` 0…9: 3 gives the milliseconds MapTheThings wants, 9 the nanoseconds TTN sends.
    public static func string(_ time: Timestamp, fractionDigits: Int = 3) -> String {
        let ns = time.nanosecondsSinceEpoch
        var seconds = ns / 1_000_000_000
        var fraction = ns % 1_000_000_000
        if fraction < 0 {
            fraction += 1_000_000_000
            seconds -= 1
        }
        var days = seconds / 86_400
        var secondOfDay = seconds % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        let (y, m, d) = civil(fromDays: Int(days))
        var text = "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(Int(secondOfDay / 3600), 2)):\(pad(Int(secondOfDay / 60 % 60), 2)):\(pad(Int(secondOfDay % 60), 2))"
        let digits = max(0, min(9, fractionDigits))
        if digits > 0 {
            var divisor: Int64 = 1
            for _ in 0..<(9 - digits) { divisor *= 10 }
            text += "." + pad(Int(fraction / divisor), digits)
        }
        return text + "Z"
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// Howard Hinnant's civil_from_days: the calendar date of a day count since 1970-01-01.
    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
