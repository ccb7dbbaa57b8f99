/// How an emulated BLE node behaves, as `--node fake?airtime=0.4&fail=0.2` sets it: to try mtt
/// (and a drive's alerts) against a node that is slow on the air or loses transmissions.
public struct EmulatorOptions: Sendable, Hashable, CustomStringConvertible {
    /// Seconds a transmission keeps the radio busy; the emulator's own when nil.
    public var airtime: Double?
    /// The share of transmissions, 0 to 1, whose result never comes: a failed send, as the real
    /// node reports it (by saying nothing).
    public var failures: Double = 0

    public init(airtime: Double? = nil, failures: Double = 0) {
        self.airtime = airtime
        self.failures = failures
    }

    /// `airtime=SECONDS&fail=SHARE`, either or both.
    public init(parsing text: Substring, spec: String) throws(SpecError) {
        for pair in text.split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
            switch (kv.first, kv.count == 2 ? Double(kv[1]) : nil) {
            case ("airtime", let seconds?) where seconds.isFinite && seconds >= 0 && seconds <= 60:
                airtime = seconds
            case ("fail", let share?) where share >= 0 && share <= 1:
                failures = share
            default:
                throw SpecError("bad node spec \(spec): the fake node takes airtime=SECONDS (0 to 60) and fail=SHARE (0 to 1), not \(pair)")
            }
        }
    }

    public var description: String {
        var parts: [String] = []
        if let airtime { parts.append("airtime=\(airtime.plainText)") }
        if failures > 0 { parts.append("fail=\(failures.plainText)") }
        return parts.joined(separator: "&")
    }
}
