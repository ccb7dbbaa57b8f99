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

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, keeping up to nanoseconds
    /// (The Things Stack sends nine fraction digits). Nil for anything else.
    public static func parse(_ text: some StringProtocol) -> Timestamp? {
        // In place: a listener parses three of these for every uplink.
        text.withUTF8Bytes(parse(utf8:))
    }

    /// Whether `parse` refused the text only for its year: well-formed, but outside the years a
    /// `Timestamp` holds (1678…2261), such as Go's zero time `0001-01-01T00:00:00Z`.
    public static func isOutOfRange(_ text: some StringProtocol) -> Bool {
        var bytes = Array(text.utf8)
        guard bytes.count >= 20, parse(text) == nil, bytes[0..<4].allSatisfy({ (48...57).contains($0) }) else { return false }
        bytes.replaceSubrange(0..<4, with: Array("2000".utf8))
        return bytes.withUnsafeBufferPointer(parse(utf8:)) != nil
    }

    /// The same from UTF-8 bytes where they stand (a JSON reader's view of a message).
    public static func parse(utf8 b: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= b.count else { return nil }
            var value = 0
            for i in range {
                guard b[i] >= 48 && b[i] <= 57 else { return nil }
                value = value * 10 + Int(b[i] - 48)
            }
            return value
        }
        guard b.count >= 20, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
              b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t") || b[10] == UInt8(ascii: " "),
              b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour < 24, minute < 60, second < 61
        else { return nil }
        var i = 19
        var nanos: Int64 = 0
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            var digits = 0
            while i < b.count, b[i] >= 48, b[i] <= 57 {
                if digits < 9 {
                    nanos = nanos * 10 + Int64(b[i] - 48)
                    digits += 1
                }
                i += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<9 { nanos *= 10 }
        }
        var offsetSeconds = 0
        guard i < b.count else { return nil }
        if b[i] == UInt8(ascii: "Z") || b[i] == UInt8(ascii: "z") {
            i += 1
        } else if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
            guard i + 6 == b.count, b[i + 3] == UInt8(ascii: ":"),
                  let oh = number((i + 1)..<(i + 3)), let om = number((i + 4)..<(i + 6)), oh < 24, om < 60
            else { return nil }
            offsetSeconds = (oh * 3600 + om * 60) * (b[i] == UInt8(ascii: "-") ? -1 : 1)
            i += 6
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        let days = Int64(CivilDays.from(year: year, month: month, day: day))
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second - offsetSeconds)
        // Nanoseconds in an Int64 reach from 1677 to 2262; a year outside is no time mtt can keep
        // (found by fuzzing: year 0927 used to crash the decoder).
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (total, overflowAgain) = scaled.addingReportingOverflow(nanos)
        guard !overflow && !overflowAgain else { return nil }
        return Timestamp(nanosecondsSinceEpoch: total)
    }
}

extension RFC3339 {
    /// February 30 is no date: the parser refuses it rather than reading it as March 2.
    @inline(__always)
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

/// Days since 1970-01-01 of a civil date (Howard Hinnant's days_from_civil).
public enum CivilDays {
    public static func from(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
