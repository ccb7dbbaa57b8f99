/// A length of time as a person in the field reads it. One wording for every command: `mtt gps`
/// said "age 13462604.6 s" where collect said "155 days".
public enum SpokenDuration {
    /// How old something is: `0.4 s`, `42 s` and up to 2 h in seconds (the unit freshness limits
    /// are set in), then `3 h`, then `5 days`; `-42 s` for a time in the future.
    public static func age(_ seconds: Double) -> String {
        switch seconds {
        case ..<0: "-" + age(-seconds)
        case ..<10: "\(((seconds * 10).rounded() / 10).plainText) s"
        case ..<7200: "\(Int(seconds)) s"
        case ..<172_800: "\(Int(seconds / 3600)) h"
        default: "\(Int(seconds / 86_400)) days"
        }
    }

    /// How long something lasted: `45 s`, `14 min`, `2 h 05 min`, `3 days 4 h`.
    public static func length(_ seconds: Double) -> String {
        let s = Int(max(0, seconds).rounded())
        switch s {
        case ..<120: return "\(s) s"
        case ..<3600: return "\(s / 60) min"
        case ..<172_800: return "\(s / 3600) h \((s % 3600) / 60 < 10 ? "0" : "")\((s % 3600) / 60) min"
        default: return "\(s / 86_400) days \((s % 86_400) / 3600) h"
        }
    }
}
